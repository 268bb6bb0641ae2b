import ArgumentParser
import Channels
import ClarissaCommands
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

/// Docs that cannot go stale: every shipped site, channel kind and command is named in README.md
/// or docs/, and every `clarissa ...` command line written there parses as clarissa reads it.
@Suite struct DocsTests {
  /// README.md and the Markdown files under docs/, by path relative to the package.
  static let documents: [(path: String, text: String)] = {
    let root = TestTools.packageRoot
    var paths = ["README.md"]
    let docs = root.appendingPathComponent("docs")
    let found = FileManager.default.enumerator(atPath: docs.path)?.compactMap { $0 as? String }
    paths += (found ?? []).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    return paths.compactMap { path in
      (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map {
        (path, $0)
      }
    }
  }()

  static var allText: String { documents.map(\.text).joined(separator: "\n") }

  @Test func everyShippedSiteIsNamed() {
    let text = Self.allText
    let missing = Registry.sites.ids.filter { !text.contains("`\($0)`") }
    #expect(missing.isEmpty, "sites named nowhere in README.md or docs/: \(missing)")
  }

  @Test func everyChannelKindIsNamed() {
    let text = Self.allText
    // Every kind of the registry, by each of its URL schemes.
    let missing = ChannelRegistry.all.flatMap(\.schemes).filter {
      !text.contains("`\($0)") && !text.contains("\($0)://") && !text.contains("\($0):")
    }
    #expect(missing.isEmpty, "channel kinds named nowhere in README.md or docs/: \(missing)")
  }

  @Test func everyCommandIsNamed() {
    let text = Self.allText
    let missing = HelpTextTests.commands.filter { !$0.isEmpty }
      .map { (["clarissa"] + $0).joined(separator: " ") }
      .filter { !text.contains($0) }
    #expect(missing.isEmpty, "commands named nowhere in README.md or docs/: \(missing)")
  }

  /// Every command line in a shell code block (`clarissa ...` or `swift run clarissa ...`, with
  /// its continuation lines, up to a shell operator or a comment), and every `clarissa ...` in
  /// backquotes outside the blocks.
  static func commandLines(in text: String) -> [(line: Int, words: [String])] {
    enum Block { case none, commands, other }
    var found: [(Int, [String])] = []
    var block = Block.none
    let lines = text.components(separatedBy: "\n")
    var index = 0
    while index < lines.count {
      let number = index + 1
      var line = lines[index].trimmingCharacters(in: .whitespaces)
      index += 1
      if line.hasPrefix("```") {
        // A block in another language (yaml, json, text: a diagram) holds no command lines.
        let language = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
        let shell = ["", "sh", "bash", "shell", "console"].contains(language)
        block = block != .none ? .none : shell ? .commands : .other
        continue
      }
      switch block {
      case .other: continue
      case .none:
        for match in line.matches(of: #/`((?:swift run )?clarissa [^`]+)`/#) {
          if let words = command(shellWords(String(match.1))) { found.append((number, words)) }
        }
        continue
      case .commands: break
      }
      while line.hasSuffix("\\"), index < lines.count {
        line = String(line.dropLast()) + " " + lines[index].trimmingCharacters(in: .whitespaces)
        index += 1
      }
      for prefix in ["$ ", "sudo "] where line.hasPrefix(prefix) {
        line = String(line.dropFirst(prefix.count))
      }
      if let words = command(shellWords(line)) { found.append((number, words)) }
    }
    return found
  }

  /// The arguments after `clarissa`, when the words run it.
  static func command(_ words: [String]?) -> [String]? {
    guard var words else { return nil }
    if words.starts(with: ["swift", "run", "clarissa"]) { words.removeFirst(2) }
    while let first = words.first, first.contains("="), !first.hasPrefix("-") {
      words.removeFirst()  // VARIABLE=value before the command
    }
    guard words.first == "clarissa" || words.first?.hasSuffix("/clarissa") == true else {
      return nil
    }
    return Array(words.dropFirst())
  }

  /// A line split as the shell would (quotes kept together), up to an operator or a comment;
  /// nil when it holds what the shell would expand first (`$(...)`, backquotes).
  static func shellWords(_ line: String) -> [String]? {
    if line.contains("$(") || line.contains("`") { return nil }
    var words: [String] = []
    var current = ""
    var quote: Character?
    var started = false
    let characters = Array(line)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      index += 1
      // `<name>` in a doc is a placeholder, not a redirection.
      if character == "<", let close = characters[index...].firstIndex(of: ">"),
        !characters[index..<close].contains(" ")
      {
        current += String(characters[(index - 1)...close])
        started = true
        index = close + 1
        continue
      }
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
        continue
      }
      switch character {
      case "'", "\"":
        quote = character
        started = true
      case " ", "\t":
        if started { words.append(current) }
        current = ""
        started = false
      case "#" where !started, "|", ";", ">", "<", "&":
        if started { words.append(current) }
        return words
      default:
        current.append(character)
        started = true
      }
    }
    if started { words.append(current) }
    return words
  }

  @Test func everyCommandLineInTheDocsParses() {
    var checked = 0
    for document in Self.documents {
      for (line, words) in Self.commandLines(in: document.text) {
        checked += 1
        do {
          _ = try Clarissa.parseAsRoot(words)
        } catch {
          let message = Clarissa.message(for: error)
          // --help and --version parse into a request to print, which is what they are for.
          if words.contains("--help") || words.contains("-h") || words == ["--version"] {
            continue
          }
          let command = words.joined(separator: " ")
          Issue.record(
            Comment(
              rawValue: "\(document.path):\(line): 'clarissa \(command)' does not parse: "
                + message))
        }
      }
    }
    #expect(checked > 50, "the docs hold command lines (\(checked) found)")
  }
}
