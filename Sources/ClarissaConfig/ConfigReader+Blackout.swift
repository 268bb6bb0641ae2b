internal import ClarissaCore
internal import Foundation
internal import YAML

/// The `blackout` section: named quiet-hours windows.
extension ConfigReader {
  static let blackoutKeys = ["timezone", "days", "from", "to", "mode"]

  private static let dayNames: [String: [Weekday]] = {
    var names: [String: [Weekday]] = [
      "weekdays": [.mon, .tue, .wed, .thu, .fri], "weekends": [.sat, .sun],
      "daily": Weekday.allCases, "everyday": Weekday.allCases,
    ]
    for (day, name) in zip(Weekday.allCases, Weekday.longNames) {
      names[day.rawValue] = [day]
      names[name] = [day]
    }
    return names
  }()

  func readBlackouts(_ node: Node?) -> [String: BlackoutWindow] {
    guard let node, !node.isNull, let table = table(node, "'blackout'") else { return [:] }
    var windows: [String: BlackoutWindow] = [:]
    for entry in table.entries {
      if let window = readWindow(entry) { windows[entry.key] = window }
      blackoutNames.insert(entry.key)
    }
    return windows
  }

  private func readWindow(_ entry: Table.Entry) -> BlackoutWindow? {
    let what = "blackout window '\(entry.key)'"
    guard let table = table(entry.value, what) else { return nil }
    checkKeys(table, allowed: Self.blackoutKeys, in: what)
    let missing = ["timezone", "from", "to"].filter { table[$0] == nil }
    if !missing.isEmpty {
      let quoted = missing.map { "'\($0)'" }
      let list =
        quoted.count == 1
        ? quoted[0] : quoted.dropLast().joined(separator: ", ") + " and " + quoted[quoted.count - 1]
      error(
        "\(what) needs \(list), as in '{timezone: Europe/Paris, from: \"22:00\", to: \"07:00\"}'",
        at: entry.keyNode)
    }
    let ok = missing.isEmpty
    let zone = table["timezone"].flatMap { timeZone($0, what) }
    let from = table["from"].flatMap { time($0, "'from' of \(what)") }
    let to = table["to"].flatMap { time($0, "'to' of \(what)") }
    let days = table["days"].map { self.days($0, what) } ?? Set(Weekday.allCases)
    let mode =
      table["mode"].map { choice($0, "'mode' of \(what)", BlackoutWindow.Mode.self) } ?? .hold
    guard ok, let zone, let from, let to, let days, let mode else { return nil }
    if from == to, let node = table["to"] {
      error("\(what) is empty: 'from' and 'to' are both \(from)", at: node)
      return nil
    }
    return BlackoutWindow(
      name: entry.key, timeZone: zone, days: days, from: from, to: to, mode: mode,
      location: location(entry.keyNode))
  }

  private func timeZone(_ node: Node, _ what: String) -> String? {
    guard let name = string(node, "'timezone' of \(what)") else { return nil }
    // Every tzdata name the system knows, links included (US/Pacific, Etc/GMT+8): the list of
    // known identifiers leaves links out, but TimeZone(identifier:) reads them all.
    if name == "UTC" || TimeZone(identifier: name) != nil { return name }
    let hint = Self.timeZoneHint(for: name, sites: sites)
    error("unknown time zone '\(name)' in \(what)\(hint)", at: node)
    return nil
  }

  /// "America/Seattle": the city is looked up in the sites' place tables (Craigslist's seattle
  /// area is in America/Los_Angeles); otherwise the closest zone of the same region by spelling.
  static func timeZoneHint(for name: String, sites: SiteCatalog) -> String {
    let parts = name.split(separator: "/").map(String.init)
    let city = (parts.last ?? name).replacingOccurrences(of: "_", with: " ").lowercased()
    if city.count >= 3 {
      let squeezed = city.replacingOccurrences(of: " ", with: "")
      for site in sites.all {
        let places = site.knownCities(matching: city) + site.knownCities(matching: squeezed)
        let zoned = places.filter { $0.timeZone != nil }
        // The area of that name, else a place whose description starts with it, else one that
        // names it ("city of san francisco").
        let place =
          zoned.first { $0.name == squeezed }
          ?? zoned.first { $0.description.lowercased().hasPrefix(city) }
          ?? zoned.first { $0.description.lowercased().contains(city) }
        if let place, let zone = place.timeZone {
          return "; did you mean '\(zone)'? (the zone of \(site.id) city '\(place.name)', "
            + "\(place.description))"
        }
      }
    }
    let known = TimeZone.knownTimeZoneIdentifiers
    let region = parts.count > 1 ? parts[0] + "/" : ""
    let sameRegion = known.filter { !region.isEmpty && $0.hasPrefix(region) }
    let byCity = Suggestions.closest(
      to: parts.last ?? name, in: sameRegion.map { String($0.dropFirst(region.count)) })
    if let city = byCity.first { return "; did you mean '\(region)\(city)'?" }
    if let close = Suggestions.closest(to: name, in: known + ["UTC"]).first {
      return "; did you mean '\(close)'?"
    }
    return "; use an IANA name such as 'Europe/Paris'"
  }

  private func time(_ node: Node, _ what: String) -> TimeOfDay? {
    guard let text = string(node, what) else { return nil }
    guard let time = TimeOfDay(parsing: text) else {
      error("expected a 24-hour time such as '22:00' for \(what), found '\(text)'", at: node)
      return nil
    }
    return time
  }

  /// `[mon, tue]`, `mon-fri`, `weekdays`, `weekends`, `daily`.
  private func days(_ node: Node, _ what: String) -> Set<Weekday>? {
    var days = Set<Weekday>()
    var ok = true
    for (text, item) in stringList(node, "'days' of \(what)") {
      let word = text.lowercased()
      if let named = Self.dayNames[word] {
        days.formUnion(named)
      } else if let range = dayRange(word) {
        days.formUnion(range)
      } else {
        let hint = Suggestions.hint(for: word, in: Array(Self.dayNames.keys))
        error(
          "'\(text)' is not a day in \(what); use mon ... sun, a range such as 'mon-fri', "
            + "'weekdays' or 'weekends'\(hint)", at: item)
        ok = false
      }
    }
    if ok, days.isEmpty {
      error("'days' of \(what) lists no days", at: node)
      return nil
    }
    return ok ? days : nil
  }

  /// `mon-fri`, `fri-mon` (wrapping past Sunday).
  private func dayRange(_ word: String) -> [Weekday]? {
    let ends = word.split(separator: "-").map(String.init)
    guard ends.count == 2, let first = Self.dayNames[ends[0]], first.count == 1,
      let last = Self.dayNames[ends[1]], last.count == 1
    else { return nil }
    var result: [Weekday] = []
    var index = first[0].index
    while true {
      result.append(Weekday.allCases[index])
      if index == last[0].index { return result }
      index = (index + 1) % 7
    }
  }
}
