internal import ArgumentParser
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

extension StateCommand {
  /// `clarissa state export`: the whole database as JSON lines.
  struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write everything runs remember as JSON lines (jq-friendly).",
      discussion: """
        One JSON object per line, its "type" first: a header, then searches, listings (with \
        their price history and the searches that saw them), deliveries, held and recent \
        listings, validators and cool-downs, in a stable order, so that a state kept in git \
        changes by small diffs. docs/state.md describes every member. 'clarissa state import' \
        reads it back. It reads without the lock, from one consistent view.

        Examples:
          clarissa state export > state.jsonl
          clarissa state export --output state.jsonl
          clarissa state export | jq -c 'select(.type == "listing" and (.prices | length) > 1)'
        """
    )

    @OptionGroup var options: StateOptions

    @Option(
      name: [.short, .long],
      help: ArgumentHelp(
        "Write to this file (replaced whole) instead of stdout.", valueName: "file"))
    var output: String?

    func run() throws {
      guard let output else {
        _ = try options.reading(quiet: true) { store, _ in
          try store.export { print($0) }
        }
        return
      }
      let partial = output + ".partial"
      guard FileManager.default.createFile(atPath: partial, contents: nil),
        let handle = FileHandle(forWritingAtPath: partial)
      else {
        Terminal.error("error: cannot write '\(partial)'\n")
        throw ExitStatus.failure.exitCode
      }
      defer { try? handle.close() }
      try options.reading(quiet: true) { store, _ in
        try store.export { try handle.write(contentsOf: Data(($0 + "\n").utf8)) }
      }
      try handle.synchronize()
      guard rename(partial, output) == 0 else {
        Terminal.error("error: cannot rename '\(partial)' to '\(output)'\n")
        throw ExitStatus.failure.exitCode
      }
    }
  }
}
