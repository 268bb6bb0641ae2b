internal import ClarissaCore
internal import Foundation
internal import YAML

/// The `cities`, `state` and `http` sections.
extension ConfigReader {
  static let stateKeys = ["path", "retention", "url", "password_file", "lease", "politeness"]
  static let httpKeys = [
    "user_agent", "timeout", "max_response_size", "min_delay", "jitter", "max_hosts",
  ]
  static let outputKeys = ["atom", "html", "keep"]
  /// `limits:` keys with the range each takes and how it is set on ``Limits``.
  static var limitKeys: [(key: String, range: ClosedRange<Int>, path: WritableKeyPath<Limits, Int>)]
  {
    [
      ("items_per_source", 1...1_000_000, \.itemsPerSource),
      ("new_per_answer", 1...1_000_000, \.newPerAnswer),
      ("announce_per_search", 1...100_000, \.announcePerSearch),
      ("title_length", 20...100_000, \.titleLength),
      ("place_length", 20...100_000, \.placeLength),
      ("description_length", 100...10_000_000, \.descriptionLength),
    ]
  }

  /// `cities:` maps a group name to city names (a group may name other groups).
  func readCityGroups(_ node: Node?) -> [String: [String]] {
    guard let node, !node.isNull, let table = table(node, "'cities'") else { return [:] }
    var groups: [String: [String]] = [:]
    for entry in table.entries {
      let members = stringList(entry.value, "city group '\(entry.key)'").map(\.0)
      if members.isEmpty {
        error("city group '\(entry.key)' lists no cities", at: entry.value)
      }
      groups[entry.key] = members
      cityGroupNodes[entry.key] = entry
    }
    return groups
  }

  func readState(_ node: Node) -> StateSettings {
    var state = StateSettings()
    guard let table = table(node, "'state'") else { return state }
    checkKeys(table, allowed: Self.stateKeys, in: "'state'")
    if let value = table["path"], let path = expandedString(value, "'state.path'") {
      state.path = path
      let folder = (path as NSString).deletingLastPathComponent
      if path.hasSuffix("/") {
        error("'state.path' names a folder; give a file name such as 'state.json'", at: value)
      } else if !folder.isEmpty, !FileManager.default.fileExists(atPath: resolvedPath(folder)) {
        warning(
          "the state file's folder '\(folder)' does not exist yet; run will create it", at: value)
      }
    }
    if let retention = interval(
      table["retention"], "'state.retention'", warningBelow: .days(1),
      {
        "retention \($0) is shorter than a day; listings that reappear after that are reported again"
      })
    {
      state.retention = retention
    }
    readSharedState(table, into: &state)
    return state
  }

  /// A duration, when given, with `warning` when it is shorter than `floor`.
  private func interval(
    _ node: Node?, _ what: String, warningBelow floor: Interval, _ warning: (Interval) -> String
  ) -> Interval? {
    guard let node, let value = interval(node, what) else { return nil }
    if value < floor { self.warning(warning(value), at: node) }
    return value
  }

  /// `url`, `password_file`, `lease` and `politeness`: a PostgreSQL store shared by workers.
  private func readSharedState(_ table: Table, into state: inout StateSettings) {
    if let value = table["url"], let url = expandedString(value, "'state.url'") {
      if !(url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")) {
        error(
          "'state.url' must be a PostgreSQL URL such as 'postgres://clarissa@db.lan/clarissa' "
            + "(found '\(url)'); a database file is 'state.path'", at: value)
      } else if let path = table["path"] {
        error("give 'state.url' or 'state.path', not both: the store is one or the other", at: path)
      } else {
        state.url = url
      }
    }
    if let value = table["password_file"],
      let file = expandedString(value, "'state.password_file'")
    {
      if !FileManager.default.isReadableFile(atPath: resolvedPath(file)) {
        warning("the password file '\(file)' cannot be read (yet)", at: value)
      }
      state.passwordFile = file
    }
    if let lease = interval(
      table["lease"], "'state.lease'", warningBelow: .seconds(10),
      {
        "a lease of \($0) may end before a slow source answers: another worker then asks it again"
      })
    {
      state.lease = lease
    }
    if let value = table["politeness"],
      let politeness = choice(value, "'state.politeness'", StateSettings.Politeness.self)
    {
      state.politeness = politeness
    }
    for key in ["password_file", "lease", "politeness"] where table["url"] == nil {
      if let node = table[key] {
        warning("'state.\(key)' is for a PostgreSQL store ('state.url'); it is ignored", at: node)
      }
    }
  }

  func readHTTP(_ node: Node) -> HTTPSettings {
    var http = HTTPSettings()
    guard let table = table(node, "'http'") else { return http }
    checkKeys(table, allowed: Self.httpKeys, in: "'http'")
    if let value = table["user_agent"], let agent = expandedString(value, "'http.user_agent'") {
      http.userAgent = agent
    }
    if let value = table["timeout"], let timeout = interval(value, "'http.timeout'") {
      if timeout > .minutes(10) {
        warning("a timeout of \(timeout) lets one slow site hold up a whole run", at: value)
      }
      http.timeout = timeout
    }
    if let value = table["max_response_size"],
      let size = byteSize(value, "'http.max_response_size'")
    {
      http.maxResponseBytes = size
    }
    if let value = table["min_delay"],
      let delay = interval(value, "'http.min_delay'", zeroMeansNone: true)
    {
      http.minimumDelay = delay
      userDelay = (delay, value)
    }
    if let value = table["jitter"] {
      if let jitter = interval(value, "'http.jitter'", zeroMeansNone: true) { http.jitter = jitter }
    }
    if let value = table["max_hosts"],
      let hosts = integer(value, "'http.max_hosts'", in: 1...64)
    {
      http.maxConcurrentHosts = hosts
    }
    return http
  }

  func readOutput(_ node: Node) -> OutputSettings {
    var output = OutputSettings()
    guard let table = table(node, "'output'") else { return output }
    checkKeys(table, allowed: Self.outputKeys, in: "'output'")
    if let value = table["atom"] { output.atom = expandedString(value, "'output.atom'") }
    if let value = table["html"] { output.html = expandedString(value, "'output.html'") }
    if let value = table["keep"], let keep = integer(value, "'output.keep'", in: 1...1000) {
      output.keep = keep
    }
    return output
  }

  func readLimits(_ node: Node) -> Limits {
    var limits = Limits()
    guard let table = table(node, "'limits'") else { return limits }
    checkKeys(table, allowed: Self.limitKeys.map(\.key), in: "'limits'")
    for (key, range, path) in Self.limitKeys {
      if let value = table[key], let number = integer(value, "'limits.\(key)'", in: range) {
        limits[keyPath: path] = number
      }
    }
    return limits
  }

  /// A path from the config, relative to the config file's folder.
  func resolvedPath(_ path: String) -> String {
    path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
  }
}

extension ConfigReader {
  /// A user's delay can shorten nothing below a site's own floor: say which floors of the sites
  /// the searches use win.
  func explainFloors(below delay: Interval, at node: Node, used: Set<String>) {
    let floors = sites.all.filter {
      used.contains($0.id) && $0.politeness.minimumDelay > delay.timeInterval
    }
    .map { "\($0.id) \(Interval(milliseconds: Int($0.politeness.minimumDelay * 1000)))" }
    guard !floors.isEmpty else { return }
    warning(
      "'http.min_delay' \(delay) is below the sites' own floors (\(floors.joined(separator: ", "))); "
        + "a host is never asked more often than its site's floor allows", at: node)
  }
}
