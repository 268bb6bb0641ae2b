internal import ArgumentParser
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

extension StateCommand {
  /// `clarissa state import FILE`: an export, or a JSON state of an earlier clarissa, into the
  /// database.
  struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Read an export (JSON lines) or an old JSON state file into the database.",
      discussion: """
        FILE is what 'clarissa state export' wrote, or a JSON state file of an earlier \
        clarissa (format 1 or 2; its bare ids take the site of their search in the config). \
        Everything is read in one transaction: a bad line changes nothing and is named with \
        its line number. Importing the same file again changes nothing more; a delivery is \
        never taken back, so nothing imported is notified again. The database is created when \
        there is none; the runs' lock is held meanwhile.

        Examples:
          clarissa state import state.jsonl
          clarissa state import clarissa-state.json --config searches.yaml
        """
    )

    @OptionGroup var options: StateOptions

    @Argument(help: ArgumentHelp("The file to import.", valueName: "file"))
    var file: String

    func run() throws {
      // The first piece is enough to tell an export from a JSON state; an export is read a
      // piece at a time.
      guard let handle = FileHandle(forReadingAtPath: file) else {
        Terminal.error("error: cannot read '\(file)'\n")
        throw ExitStatus.failure.exitCode
      }
      let head = (try? handle.read(upToCount: 1 << 16)) ?? Data()
      try? handle.close()
      let summary = try options.writing(create: true) { store, configuration in
        do {
          return try Self.importing(head, from: file, into: store, configuration)
        } catch let problem as StoreProblem {
          // The file is at fault, not the database: exit 1, as for any bad input file.
          Terminal.error("error: \(problem)\n")
          throw ExitStatus.failure.exitCode
        }
      }
      if let summary { print(summary) }
    }

    /// Imports the file as JSON lines or as a JSON state; returns what to print.
    static func importing(
      _ head: Data, from file: String, into store: ListingStore, _ configuration: Config?
    ) throws -> String {
      guard ListingStore.isLegacyJSON(file), !isExport(head) else {
        return "imported \(try store.importLines(path: file))"
      }
      let sites = Dictionary(
        (configuration?.searches ?? []).map { ($0.name, $0.site) }
      ) { first, _ in first }
      try store.importLegacy(jsonFile: file, sites: sites)
      return "imported the JSON state '\(file)'"
        + (configuration == nil
          ? " (no config: a search's ids take the site of its listings in the file, else "
            + "'unknown')" : "")
    }

    /// Whether the first line is one of an export (an object with a `"type"`).
    static func isExport(_ data: Data) -> Bool {
      let first = data.prefix { $0 != UInt8(ascii: "\n") }
      let object = try? JSONSerialization.jsonObject(with: Data(first)) as? [String: Any]
      return object?["type"] is String
    }
  }
}
