import ClarissaCore
import Foundation
import YAML

/// The `blackout` section: named quiet-hours windows.
extension ConfigReader {
  static let blackoutKeys = ["timezone", "days", "from", "to", "mode"]

  private static let dayNames: [String: [Weekday]] = {
    var names: [String: [Weekday]] = [
      "weekdays": [.mon, .tue, .wed, .thu, .fri], "weekends": [.sat, .sun],
      "daily": Weekday.allCases, "everyday": Weekday.allCases,
    ]
    let long = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    for (day, name) in zip(Weekday.allCases, long) {
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
    let known = TimeZone.knownTimeZoneIdentifiers
    if known.contains(name) || name == "UTC" { return name }
    let suggestion = Suggestions.closest(to: name, in: known + ["UTC"]).first
    let hint =
      suggestion.map { "; did you mean '\($0)'?" } ?? "; use an IANA name such as 'Europe/Paris'"
    error("unknown time zone '\(name)' in \(what)\(hint)", at: node)
    return nil
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
