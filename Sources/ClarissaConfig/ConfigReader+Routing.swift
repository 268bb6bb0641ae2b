internal import ClarissaCore
internal import Foundation
internal import YAML

/// `routing:`: the engine each travel mode is asked (``RoutingSettings``). A mapping from a
/// mode (`car`, `bike`, `foot`, `transit`) to its engine: `{osrm: URL, profile: driving}` or
/// `{motis: URL, arrive: "Mon 08:30"}`, each with `per_run` and `delay`.
///
/// OSRM serves car, bike and foot (it has no timetables), so `osrm` for `transit` is an error;
/// MOTIS is asked for transit alone (its one-to-many endpoint as clarissa asks it carries no
/// mode), so `motis` for another mode is an error too.
extension ConfigReader {
  static let routingEngineKeys = [
    "osrm", "motis", "profile", "arrive", "depart", "per_run", "delay",
  ]

  /// Words people write for a mode, and what to write instead.
  static let travelModeHints = [
    "train": "(write 'transit')", "tram": "(write 'transit')", "bus": "(write 'transit')",
    "public": "(write 'transit')", "pt": "(write 'transit')", "bicycle": "(write 'bike')",
    "cycling": "(write 'bike')", "cycle": "(write 'bike')", "walk": "(write 'foot')",
    "walking": "(write 'foot')",
    "driving": "(write 'car')",
  ]

  /// The least `delay` for an engine on another machine: one request a second, as the
  /// geocoder's floor (Transitous asks to be told before "many requests"). An engine on this
  /// machine (127.0.0.1, ::1, localhost) may be asked as fast as the user likes.
  static let leastRoutingDelay = Interval.seconds(1)

  /// OSRM's profile for each mode when `profile` is not written (the names of OSRM's own
  /// `car.lua`, `bicycle.lua` and `foot.lua` servers' usual `driving`, `cycling`, `foot`).
  static let defaultProfiles: [TravelMode: String] = [
    .car: "driving", .bike: "cycling", .foot: "foot",
  ]

  /// MOTIS's moment when neither `arrive` nor `depart` is written: arriving Monday 08:30, a
  /// working morning.
  static let defaultDeparture = Departure(weekday: 1, minutes: 8 * 60 + 30)

  func readRouting(_ node: Node) -> RoutingSettings {
    guard !node.isNull, let table = table(node, "'routing'") else { return RoutingSettings() }
    var settings = RoutingSettings()
    for entry in table.entries {
      guard let mode = TravelMode(rawValue: entry.key) else {
        error(
          unknownModeMessage(entry.key, in: "'routing'"), at: entry.keyNode)
        continue
      }
      if let engine = readEngine(entry.value, mode: mode) { settings.engines[mode] = engine }
    }
    return settings
  }

  /// "unknown travel mode 'tram' in 'routing' (write 'transit')".
  func unknownModeMessage(_ word: String, in what: String) -> String {
    let modes = TravelMode.allCases.map(\.rawValue)
    let base = "unknown travel mode '\(word)' in \(what)"
    if let hint = Self.travelModeHints[word.lowercased()] { return "\(base) \(hint)" }
    return base + Suggestions.hint(for: word, in: modes)
      + " (expected \(modes.joined(separator: ", ")))"
  }

  private func readEngine(_ node: Node, mode: TravelMode) -> RoutingEngine? {
    let what = "'routing.\(mode.rawValue)'"
    let example =
      mode == .transit
      ? "'{motis: \"https://api.transitous.org\"}'" : "'{osrm: \"http://127.0.0.1:5000\"}'"
    guard node.mapping != nil else {
      error(
        "expected a mapping such as \(example) for \(what), found \(node.kindDescription)",
        at: node)
      return nil
    }
    guard let table = table(node, what) else { return nil }
    checkKeys(table, allowed: Self.routingEngineKeys, in: what)
    let kinds = RoutingEngine.Kind.allCases.filter { table[$0.rawValue] != nil }
    guard let kind = kinds.first, let urlNode = table[kind.rawValue] else {
      error(
        "\(what) needs an engine: 'osrm: URL' (car, bike, foot) or 'motis: URL' (transit), "
          + "as in \(example)", at: node)
      return nil
    }
    if kinds.count > 1,
      let second = table.entries.last(where: { kinds.map(\.rawValue).contains($0.key) })
    {
      error("\(what) names two engines; keep 'osrm' or 'motis'", at: second.keyNode)
      return nil
    }
    // A kind that does not serve the mode is reported, and the rest is still read, so that one
    // pass reports all.
    var fits = true
    if kind == .motis, mode != .transit {
      let entry = table.entries.first { $0.key == "motis" }
      error(
        "clarissa asks MOTIS for transit journeys only (its one-to-many endpoint, timed by "
          + "timetable); route '\(mode.rawValue)' with 'osrm: URL' (an OSRM server with its "
          + "\(Self.defaultProfiles[mode] ?? "") profile)", at: entry?.keyNode ?? node)
      fits = false
    }
    if kind == .osrm, mode == .transit {
      let entry = table.entries.first { $0.key == "osrm" }
      error(
        "OSRM has no timetables, so it cannot route 'transit'; write 'motis: URL' (a MOTIS "
          + "server, such as https://api.transitous.org)", at: entry?.keyNode ?? node)
      fits = false
    }
    // The options are read even after a wrong URL, so that one pass reports all.
    let url = engineURL(urlNode, "'routing.\(mode.rawValue).\(kind.rawValue)'")
    var engine = RoutingEngine(kind: kind, url: url ?? "")
    readEngineOptions(table, into: &engine, mode: mode, what: what)
    return url == nil || !fits ? nil : engine
  }

  /// `profile` (OSRM), `depart` (MOTIS), `per_run`, `delay`.
  private func readEngineOptions(
    _ table: Table, into engine: inout RoutingEngine, mode: TravelMode, what: String
  ) {
    let motis = engine.kind == .motis
    let name = "routing.\(mode.rawValue)"
    if let value = table["profile"] {
      if motis {
        error(
          "'profile' is OSRM's; \(what) asks MOTIS, which is told the mode itself",
          at: table.entries.first { $0.key == "profile" }?.keyNode ?? value)
      } else if let profile = string(value, "'\(name).profile'") {
        // It goes into the URL's path: a plain word.
        let plain = profile.allSatisfy {
          $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-")
        }
        if profile.isEmpty || !plain {
          error(
            "expected an OSRM profile name such as 'driving', 'cycling' or 'foot' for "
              + "'\(name).profile', found '\(profile)'", at: value)
        } else {
          engine.profile = profile
        }
      }
    }
    if !motis, engine.profile == nil { engine.profile = Self.defaultProfiles[mode] }
    // MOTIS times many homes to one place by the arrival there (`arriveBy`: the journeys'
    // shared moment is at the place): `arrive` says so; `depart`, the issue's first spelling,
    // is read as the same moment, with a warning that says what is asked.
    for key in ["arrive", "depart"] {
      guard let value = table[key] else { continue }
      let keyNode = table.entries.first { $0.key == key }?.keyNode ?? value
      if !motis {
        error(
          "'\(key)' is for MOTIS, whose times follow a timetable; OSRM's do not depend on when",
          at: keyNode)
        continue
      }
      if engine.depart != nil {
        error("\(what) gives both 'arrive' and 'depart'; keep 'arrive'", at: keyNode)
        continue
      }
      guard let text = string(value, "'\(name).\(key)'") else { continue }
      guard let moment = Self.departure(text) else {
        error(departureMessage(text, "'\(name).\(key)'"), at: value)
        continue
      }
      engine.depart = moment
      if key == "depart" {
        warning(
          "MOTIS times the journeys from many homes to one place by their arrival there, so "
            + "'depart: \(moment)' asks for journeys arriving at the place by \(moment); write "
            + "'arrive: \(moment)' to say so", at: keyNode)
      }
    }
    if motis, engine.depart == nil { engine.depart = Self.defaultDeparture }
    if let value = table["per_run"], let count = integer(value, "'\(name).per_run'", in: 1...1000) {
      engine.perRun = count
    }
    if let value = table["delay"],
      let delay = interval(value, "'\(name).delay'", zeroMeansNone: true)
    {
      if delay < Self.leastRoutingDelay, !engine.url.isEmpty, !Self.isLoopback(engine.url) {
        error(
          "'\(name).delay' \(delay) is shorter than \(Self.leastRoutingDelay), the least for an "
            + "engine on another machine (one on 127.0.0.1 may be asked faster)", at: value)
      } else {
        engine.delay = delay
      }
    }
  }

  /// An http(s) URL with a host.
  private func engineURL(_ node: Node, _ what: String) -> String? {
    guard let url = expandedString(node, what) else { return nil }
    guard let components = URLComponents(string: url),
      ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
      !(components.host ?? "").isEmpty
    else {
      error(
        "\(what) must be an http(s) URL such as 'http://127.0.0.1:5000' (found '\(url)')",
        at: node)
      return nil
    }
    return url
  }

  /// Whether `url`'s host is this machine.
  static func isLoopback(_ url: String) -> Bool {
    let host = URLComponents(string: url)?.host?.lowercased() ?? ""
    return ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host) || host.hasPrefix("127.")
  }

  /// `Mon 08:30`: a weekday's first three letters, then the 24-hour time.
  static func departure(_ text: String) -> Departure? {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 2,
      let day = Departure.weekdayNames.firstIndex(of: String(parts[0])),
      let (hour, minute) = clock(parts[1]), hour < 24, minute < 60
    else { return nil }
    return Departure(weekday: day + 1, minutes: hour * 60 + minute)
  }

  private static func clock(_ text: Substring) -> (Int, Int)? {
    let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
    guard pieces.count == 2, (1...2).contains(pieces[0].count), pieces[1].count == 2,
      pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let hour = Int(pieces[0]), let minute = Int(pieces[1])
    else { return nil }
    return (hour, minute)
  }

  /// What is wrong with a departure, and the spelling that was probably meant.
  private func departureMessage(_ text: String, _ what: String) -> String {
    let base =
      "expected a weekday and a time such as 'Mon 08:30' for \(what), found '\(text)'"
    let parts = text.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 2 else { return base }
    let typed = parts[0].prefix(3).lowercased()
    let day = Departure.weekdayNames.firstIndex { $0.lowercased() == typed }
    if let day, let (hour, minute) = Self.clock(parts[1]), hour < 24, minute < 60 {
      let meant = Departure(weekday: day + 1, minutes: hour * 60 + minute)
      return base + "; write '\(meant)'"
    }
    if day == nil {
      return base + " (days: \(Departure.weekdayNames.joined(separator: ", ")))"
    }
    return base + " (hours 00-23, minutes 00-59)"
  }
}
