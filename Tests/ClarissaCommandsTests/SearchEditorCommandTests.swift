import FixtureSupport
import Foundation
import Testing

/// `clarissa serve`'s search editor as a process on loopback, over a copy of the bundled
/// searches.yaml: a search edited through its form is written with every other line as it
/// was, the previous file kept as searches.yaml.bak and the file's mode kept; a form opened
/// before the file changed is refused; a value the reader rejects is shown with its line and
/// field, unsaved; pause and delete; `watch` re-reads a file changed under it.
@Suite(.serialized) struct SearchEditorCommandTests {
  static func folder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test(.timeLimit(.minutes(2)))
  func aSearchEditedThroughTheFormChangesOnlyItsOwnLines() throws {
    let folder = try Self.folder("editor")
    let config = folder.appendingPathComponent("searches.yaml")
    let original = try String(
      contentsOf: CommandLineTests.packageRoot.appendingPathComponent("searches.yaml"),
      encoding: .utf8)
    try original.write(to: config, atomically: true, encoding: .utf8)
    chmod(config.path, 0o640)
    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = [
      "serve", "--config", config.path, "--state", folder.appendingPathComponent("s.db").path,
      "--http", "127.0.0.1:0",
    ]
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let (port, lines) = try ServeCommandTests.start(process)
    let served = try #require(port, "serve said where it serves: \(lines.all)")

    let list = try ServeCommandTests.get(served, "/searches")
    #expect(list.hasPrefix("HTTP/1.1 200"), "\(list)")
    for name in ["ipads", "arkansas-land", "manhattan-apartments", "bay-area-bikes"] {
      #expect(list.contains(">\(name)</a>"))
    }
    let page = try ServeCommandTests.get(served, "/searches/edit?name=ipads")
    var fields = try #require(FormFields(page))
    #expect(fields.first("query") == "ipad" && fields.first("price_max") == "400")
    let openedHash = try #require(fields.first("hash"))

    // A query YAML must quote: a '#', a ': ' and a trailing space.
    fields.set("query", "ipad # pro: 2 ")
    let saved = try Self.post(served, "/searches/save", fields)
    #expect(saved.hasPrefix("HTTP/1.1 303"), "\(saved)")
    #expect(saved.contains("Location: /searches?saved=ipads"))
    let after = try String(contentsOf: config, encoding: .utf8)
    let changed = Self.differingLines(original, after)
    #expect(changed == ["    query: 'ipad # pro: 2 '"], "\(changed)")
    #expect(after.contains("    category: sss             # all for sale"))
    let backup = try String(contentsOfFile: config.path + ".bak", encoding: .utf8)
    #expect(backup == original)
    let mode = try FileManager.default.attributesOfItem(atPath: config.path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o640)
    // The pages read the new file at once.
    let reread = try ServeCommandTests.get(served, "/searches/edit?name=ipads")
    #expect(reread.contains("value=\"ipad # pro: 2 \""))

    // The same form sent again: the file changed since it was opened.
    #expect(fields.first("hash") == openedHash)
    let stale = try Self.post(served, "/searches/save", fields)
    #expect(stale.hasPrefix("HTTP/1.1 409"), "\(stale)")
    #expect(stale.contains("changed since this form was opened"))
    #expect(try String(contentsOf: config, encoding: .utf8) == after)

    // A price that is no number: the reader's error, at its line and field, and no save.
    var wrong = try #require(FormFields(reread))
    wrong.set("price_max", "four hundred")
    let refused = try Self.post(served, "/searches/save", wrong)
    #expect(refused.hasPrefix("HTTP/1.1 422"), "\(refused)")
    let priceLine = try #require(
      after.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
        $0.hasPrefix("    price:")
      })
    #expect(refused.contains("line \(priceLine + 1):"), "\(refused)")
    #expect(refused.contains("(price)"), "\(refused)")
    #expect(try String(contentsOf: config, encoding: .utf8) == after)

    // Without the page's token: refused as every other form.
    var forged = wrong
    forged.set("csrf", "0")
    #expect(try Self.post(served, "/searches/save", forged).hasPrefix("HTTP/1.1 403"))

    // Pause, then delete, from the list's buttons.
    let hash = try #require(
      FormFields(try ServeCommandTests.get(served, "/searches"))?.first("hash"))
    let csrf = try #require(wrong.first("csrf"))
    let paused = try Self.post(
      served, "/searches/pause",
      FormFields(["csrf": csrf, "hash": hash, "name": "arkansas-land", "paused": "1"]))
    #expect(paused.hasPrefix("HTTP/1.1 303"), "\(paused)")
    let pausedText = try String(contentsOf: config, encoding: .utf8)
    #expect(Self.differingLines(after, pausedText) == ["    enabled: false"])
    let deleted = try Self.post(
      served, "/searches/delete",
      FormFields([
        "csrf": csrf, "hash": Self.sha256(pausedText), "name": "manhattan-apartments",
      ]))
    #expect(deleted.hasPrefix("HTTP/1.1 303"), "\(deleted)")
    let left = try String(contentsOf: config, encoding: .utf8)
    #expect(!left.contains("manhattan-apartments") && !left.contains("no fee"))
    #expect(left.contains("  - name: bay-area-bikes"))
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }

  @Test(.timeLimit(.minutes(1)))
  func watchReadsAConfigChangedUnderIt() throws {
    let feed = try FixtureSupport.Fixtures.bytes("http/feed.xml")
    let server = try LoopbackServer { _, _ in
      .init(headers: ["Content-Type": "application/rss+xml"], body: feed)
    }
    let folder = try Self.folder("watch-edit")
    let config = folder.appendingPathComponent("searches.yaml")
    let text = WatchCommandTests.config(server.base, interval: "1h")
    try text.write(to: config, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = ["watch", "--config", config.path, "--politeness-delay", "0"]
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    let lines = ServeCommandTests.Lines(errors)
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while !lines.all.contains("next check"), Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(lines.all.contains("next check"), "\(lines.all)")
    // No SIGHUP: the file's change is noticed while watch waits for its next pass.
    let second =
      text.replacingOccurrences(of: "  - name: loop", with: "  - name: loop\n    query: x")
      + "  - name: loop2\n    site: feed\n    feeds: [\(server.base)/feed.xml]\n"
    try second.write(to: config, atomically: true, encoding: .utf8)
    while !lines.all.contains("config re-read"), Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(lines.all.contains("config re-read: 2 searches"), "\(lines.all)")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }

  // MARK: - Helpers

  /// The lines of `after` that `before` does not have at the same place from either end.
  static func differingLines(_ before: String, _ after: String) -> [String] {
    let old = before.split(separator: "\n", omittingEmptySubsequences: false)
    let new = after.split(separator: "\n", omittingEmptySubsequences: false)
    var head = 0
    while head < min(old.count, new.count), old[head] == new[head] { head += 1 }
    var tail = 0
    while tail < min(old.count, new.count) - head,
      old[old.count - 1 - tail] == new[new.count - 1 - tail]
    {
      tail += 1
    }
    return new[head..<(new.count - tail)].map(String.init)
  }

  static func sha256(_ text: String) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try? process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    let answer = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return String(answer.prefix(64))
  }

  static func post(_ port: UInt16, _ path: String, _ fields: FormFields) throws -> String {
    let body = fields.encoded
    return try RawHTTP.exchange(
      port: port,
      "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
  }
}

/// A page's form as a browser would send it: text inputs, hidden inputs, the selected option of
/// each select, checked boxes and text areas, in page order.
struct FormFields {
  var pairs: [(String, String)]

  init(_ values: [String: String]) { pairs = values.map { ($0.key, $0.value) } }

  init?(_ page: String) {
    var found: [(Int, String, String)] = []
    guard let input = try? NSRegularExpression(pattern: #"<input ([^>]*)>"#),
      let select = try? NSRegularExpression(
        pattern: #"<select name="([^"]*)">(.*?)</select>"#, options: [.dotMatchesLineSeparators]),
      let selected = try? NSRegularExpression(pattern: #"<option value="([^"]*)" selected>"#),
      let firstOption = try? NSRegularExpression(pattern: #"<option value="([^"]*)""#),
      let area = try? NSRegularExpression(
        pattern: #"<textarea name="([^"]*)"[^>]*>(.*?)</textarea>"#,
        options: [.dotMatchesLineSeparators])
    else { return nil }
    let ns = page as NSString
    let all = NSRange(location: 0, length: ns.length)
    for match in input.matches(in: page, range: all) {
      let attributes = ns.substring(with: match.range(at: 1))
      guard let name = Self.attribute("name", attributes) else { continue }
      if attributes.contains("type=\"checkbox\""), !attributes.contains(" checked") { continue }
      found.append(
        (match.range.location, name, Self.unescape(Self.attribute("value", attributes) ?? "")))
    }
    for match in select.matches(in: page, range: all) {
      let options = ns.substring(with: match.range(at: 2))
      let range = NSRange(location: 0, length: (options as NSString).length)
      let chosen =
        selected.firstMatch(in: options, range: range)
        ?? firstOption.firstMatch(in: options, range: range)
      let value = chosen.map { (options as NSString).substring(with: $0.range(at: 1)) } ?? ""
      found.append(
        (match.range.location, ns.substring(with: match.range(at: 1)), Self.unescape(value)))
    }
    for match in area.matches(in: page, range: all) {
      found.append(
        (
          match.range.location, ns.substring(with: match.range(at: 1)),
          Self.unescape(ns.substring(with: match.range(at: 2)))
        ))
    }
    guard !found.isEmpty else { return nil }
    pairs = found.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
  }

  static func attribute(_ name: String, _ text: String) -> String? {
    guard let range = text.range(of: "\(name)=\"") else { return nil }
    let rest = text[range.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }

  static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  func first(_ name: String) -> String? { pairs.first { $0.0 == name }?.1 }

  mutating func set(_ name: String, _ value: String) {
    if let index = pairs.firstIndex(where: { $0.0 == name }) {
      pairs[index].1 = value
    } else {
      pairs.append((name, value))
    }
  }

  var encoded: String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return pairs.map { name, value in
      (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
        + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }.joined(separator: "&")
  }
}
