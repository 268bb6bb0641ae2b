import ArgumentParser
import ClarissaEngine
import Foundation

extension StateCommand {
  /// `clarissa state check`: is the database sound?
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check the state database: SQLite's integrity check and clarissa's own rules.",
      discussion: """
        Runs SQLite's integrity and foreign-key checks, then clarissa's rules (every sighting, \
        delivery, held, recent and price row belongs to a listing the database has; deliveries \
        in a known state; ...). Prints each problem, or 'ok'. Reads without the lock.

        Exit status: 0 when sound, 5 when damaged (or not a clarissa database, or newer than \
        this clarissa). A damaged file is never changed: move it aside and the next run starts \
        afresh, or restore it from a 'clarissa state export'.

        Examples:
          clarissa state check
          clarissa state check --state /var/lib/clarissa/clarissa.db || echo damaged
        """
    )

    @OptionGroup var options: StateOptions

    func run() throws {
      guard let (problems, path) = try options.reading({ store, path in (try store.check(), path) })
      else { return }
      guard !problems.isEmpty else {
        print("ok: '\(path)' is sound")
        return
      }
      for problem in problems { print("problem: \(problem)") }
      Terminal.error(
        "error: the state database '\(path)' has \(problems.count) problem"
          + (problems.count == 1 ? "" : "s") + "\n")
      throw ExitStatus.stateUnusable.exitCode
    }
  }
}
