internal import ClarissaCore
internal import Foundation
internal import YAML

/// The `notify` section: named channels given by URL, Apprise-style.
extension ConfigReader {
  static let channelKeys = ["url", "digest", "title", "body"]
  /// Fields a title or body template may use, as `{name}`.
  static let templateFields = [
    "title", "price", "location", "url", "search", "city", "site", "posted", "age",
    "description", "id", "count", "event", "old_price", "change", "diff", "also_posted_as", "facts",
    "distances", "commute", "context",
  ]

  func readChannels(_ node: Node?) -> [String: Channel] {
    guard let node, !node.isNull, let table = table(node, "'notify'") else { return [:] }
    var channels: [String: Channel] = [:]
    for entry in table.entries {
      channelNames.insert(entry.key)
      if let channel = readChannel(entry) { channels[entry.key] = channel }
    }
    return channels
  }

  private func readChannel(_ entry: Table.Entry) -> Channel? {
    let what = "channel '\(entry.key)'"
    // `name: URL` is the short form; a mapping adds digest and templates.
    var urlNode = entry.value
    var options: Table?
    if entry.value.mapping != nil {
      guard let table = table(entry.value, what) else { return nil }
      checkKeys(table, allowed: Self.channelKeys, in: what)
      guard let url = table["url"] else {
        error("\(what) needs a 'url'", at: entry.keyNode)
        return nil
      }
      urlNode = url
      options = table
    }
    guard let url = expandedString(urlNode, "the URL of \(what)") else { return nil }
    // Whatever is said about this channel quotes no secret of it.
    let start = diagnostics.count
    var secrets: [String] = []
    defer { hide(secrets, inDiagnosticsFrom: start) }
    if let claimant = channelKinds.claimant(of: url) {
      secrets = ChannelRedactor.secrets(in: url, declared: claimant)
    }
    let kind: any ChannelKind
    switch channelKinds.kind(for: url, written: urlNode.scalar?.value) {
    case .success(let found): kind = found
    case .failure(let problem):
      error("\(problem.message) (\(what))", at: urlNode)
      return nil
    }
    for finding in channelKinds.findings(for: url, kind: kind) {
      let message = "\(finding.message) (\(what))"
      let spot = finding.place.map { self.place(of: $0 + "=", in: urlNode) } ?? location(urlNode)
      if finding.isError {
        error(message, at: spot)
        return nil
      }
      warning(message, at: spot)
    }
    checkInstalled(kind, url: url, at: urlNode, what)
    var channel = Channel(
      name: entry.key, kind: kind.kind, url: url, location: location(entry.keyNode))
    if let options { readChannelOptions(options, into: &channel, what) }
    return channel
  }

  private func readChannelOptions(_ table: Table, into channel: inout Channel, _ what: String) {
    if let node = table["digest"] { readDigest(node, into: &channel, what) }
    if let node = table["title"] { channel.titleTemplate = template(node, "'title' of \(what)") }
    if let node = table["body"] { channel.bodyTemplate = template(node, "'body' of \(what)") }
  }

  /// A template whose `{field}` placeholders must all be known fields.
  private func template(_ node: Node, _ what: String) -> String? {
    guard let text = expandedString(node, what) else { return nil }
    var ok = true
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      guard let close = rest[open...].firstIndex(of: "}") else { break }
      let field = String(rest[rest.index(after: open)..<close])
      if !Self.templateFields.contains(field) {
        error(
          "unknown field '{\(field)}' in \(what)"
            + Suggestions.hint(for: field, in: Self.templateFields)
            + " (fields: \(Self.templateFields.joined(separator: ", ")))",
          at: place(of: "{\(field)}", in: node))
        ok = false
      }
      rest = rest[rest.index(after: close)...]
    }
    return ok ? text : nil
  }

  /// Channels that hand work to a local program: say so now if it is missing.
  private func checkInstalled(_ kind: any ChannelKind, url: String, at node: Node, _ what: String) {
    guard let parsed = ChannelURL.parse(url), let program = kind.program(parsed) else { return }
    let path = program.contains("/") ? resolvedPath(program) : findExecutable(program)
    if let path, FileManager.default.isExecutableFile(atPath: path) { return }
    switch program {
    case "apprise":
      warning(
        "the 'apprise' command is not installed (pip install apprise); \(what) will fail until it is",
        at: node)
    case "sendmail":
      warning(
        "no 'sendmail' found; \(what) will fail until a mail transfer agent is installed", at: node)
    default:
      warning("'\(program)' is not an executable file; \(what) will fail until it is", at: node)
    }
  }

  private func findExecutable(_ name: String) -> String? {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
