internal import ArgumentParser
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

extension StateCommand {
  /// `clarissa state check`: is the database sound?
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check the state database: SQLite's integrity check and clarissa's own rules.",
      discussion: """
        Runs SQLite's integrity and foreign-key checks, then clarissa's rules (every sighting, \
        delivery, held, recent and price row belongs to a listing the database has; deliveries \
        in a known state; each search's count of unviewed listings agrees with a recount; ...). \
        Prints each problem, or 'ok'. Reads without the lock. On a PostgreSQL store (--state \
        postgres://... or state.url), the same rules in one read-only snapshot, and the schema \
        version, the triggers that keep the counts, and leases held by workers it does not \
        know; the check never counts as a worker.

        Exit status: 0 when sound, 5 when damaged (or not a clarissa database, or newer than \
        this clarissa). A damaged file is never changed: move it aside and the next run starts \
        afresh, or restore it from a 'clarissa state export'.

        Examples:
          clarissa state check
          clarissa state check --state /var/lib/clarissa/clarissa.db || echo damaged
          clarissa state check --state postgres://clarissa@db.lan/clarissa
        """
    )

    @OptionGroup var options: StateOptions

    func run() throws {
      if let shared = try StateOptions.failing({ try options.sharedStore() }) {
        let name = StoreSharing.masked(shared.url)
        guard let problems = try StateOptions.failing({ try Self.problems(of: shared) }) else {
          print(
            "no clarissa store in '\(name)' yet: nothing is remembered (the first worker "
              + "makes it)")
          return
        }
        try Self.report(problems, name)
        return
      }
      guard let (problems, path) = try options.reading({ store, path in (try store.check(), path) })
      else { return }
      try Self.report(problems, path)
    }

    /// The problems of a PostgreSQL store (nil: no clarissa store there yet), read without
    /// registering as a worker.
    private static func problems(of shared: (url: String, sharing: StoreSharing)) throws
      -> [String]?
    {
      #if PostgreSQL
        return try PostgresStore.check(url: shared.url, password: shared.sharing.password)
      #else
        throw StoreProblem(StoreSharing.notBuilt(shared.url))
      #endif
    }

    /// Prints 'ok', or each problem and a summary, exiting 5.
    private static func report(_ problems: [String], _ name: String) throws {
      guard !problems.isEmpty else {
        print("ok: '\(name)' is sound")
        return
      }
      for problem in problems { print("problem: \(problem)") }
      Terminal.error(
        "error: the state database '\(name)' has \(problems.count) problem"
          + (problems.count == 1 ? "" : "s") + "\n")
      throw ExitStatus.stateUnusable.exitCode
    }
  }
}
