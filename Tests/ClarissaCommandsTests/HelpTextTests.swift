import Foundation
import Testing

/// Every command's `--help`, found by walking the SUBCOMMANDS lists from the root, so a command
/// added later is checked too.
@Suite struct HelpTextTests {
  /// Each command's words after `clarissa`, the root first.
  static let commands: [[String]] = {
    var found: [[String]] = []
    var queue: [[String]] = [[]]
    while let command = queue.first {
      queue.removeFirst()
      found.append(command)
      let help = (try? CommandLineTests.run(command + ["--help"]).stdout) ?? ""
      queue += subcommands(in: help).map { command + [$0] }
    }
    return found
  }()

  /// The names in a help text's SUBCOMMANDS section.
  static func subcommands(in help: String) -> [String] {
    guard let start = help.range(of: "\nSUBCOMMANDS:\n") else { return [] }
    return help[start.upperBound...].split(separator: "\n").compactMap { line in
      guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
      let name = line.dropFirst(2).prefix { $0 != " " }
      return name.isEmpty || name == "See" ? nil : String(name)
    }.filter { $0 != "help" }
  }

  static func help(_ command: [String], columns: Int) throws -> String {
    let outcome = try CommandLineTests.run(
      command + ["--help"], environment: ["COLUMNS": "\(columns)"])
    #expect(outcome.status == 0, "clarissa \(command.joined(separator: " ")) --help")
    return outcome.stdout
  }

  @Test func everyCommandIsFound() {
    let names = Self.commands.map { $0.joined(separator: " ") }
    for name in [
      "", "init", "run", "watch", "validate", "explain", "sites", "notify test", "serve",
    ] {
      #expect(names.contains(name), "'\(name)' not found in \(names)")
    }
  }

  /// Unwrapped (a very wide terminal), a paragraph is one line: two prose lines in a row mean
  /// the source wrapped it by hand, which leaves a stub line on every narrower terminal.
  @Test func paragraphsAreNotHardWrappedInTheSource() throws {
    for command in Self.commands {
      let help = try Self.help(command, columns: 1000)
      let overview = help.components(separatedBy: "\nUSAGE:")[0].split(
        separator: "\n", omittingEmptySubsequences: false)
      for (line, next) in zip(overview, overview.dropFirst()) {
        let prose = { (text: Substring) in !text.isEmpty && !text.hasPrefix(" ") }
        #expect(
          !(prose(line) && prose(next)),
          "clarissa \(command.joined(separator: " ")) --help wraps a paragraph by hand:\n\(line)\n\(next)"
        )
      }
    }
  }

  /// At 80 columns nothing but the usage line (which ArgumentParser never wraps) is wider.
  @Test(arguments: [80, 120])
  func everyLineFits(columns: Int) throws {
    for command in Self.commands {
      let help = try Self.help(command, columns: columns)
      for line in help.split(separator: "\n") where !line.hasPrefix("USAGE:") {
        #expect(
          line.count <= columns,
          "clarissa \(command.joined(separator: " ")) --help, \(line.count) columns: \(line)")
      }
    }
  }

  /// The examples name real files: a newcomer copies them first.
  @Test func everyFileNamedInHelpExists() throws {
    let pattern = try NSRegularExpression(
      pattern: #"(?<![\w/~.])(?:Fixtures|examples|docs)/[\w./-]*[\w/]|README\.md"#)
    var named = 0
    for command in Self.commands {
      let help = try Self.help(command, columns: 1000)
      let range = NSRange(help.startIndex..., in: help)
      for match in pattern.matches(in: help, range: range) {
        guard let span = Range(match.range, in: help) else { continue }
        let path = String(help[span])
        named += 1
        #expect(
          FileManager.default.fileExists(
            atPath: CommandLineTests.packageRoot.appendingPathComponent(path).path),
          "clarissa \(command.joined(separator: " ")) --help names '\(path)', which does not exist")
      }
    }
    #expect(named >= 5)
  }
}
