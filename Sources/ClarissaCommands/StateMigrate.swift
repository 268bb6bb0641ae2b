internal import ArgumentParser
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

extension StateCommand {
  /// `clarissa state migrate --to URL`: the SQLite store into PostgreSQL, or back.
  struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Copy the SQLite store into PostgreSQL (--to postgres://...), or back (--from).",
      discussion: """
        With --to postgres://USER@HOST/DB, the config's state database (or --state) is copied \
        into that PostgreSQL database; with --from postgres://... --to FILE, a PostgreSQL store \
        is copied into a new SQLite file. The receiving store must hold no listings; it is \
        written in one transaction, so a failure leaves it as it was. The source is only read \
        (the runs' lock is held on a SQLite source meanwhile). The password comes from the \
        URL, PGPASSWORD or ~/.pgpass, as for psql; TLS from the URL's sslmode (disable, \
        require, verify-ca, verify-full). docs/scaling.md says when to move.

        Needs a clarissa built with the trait PostgreSQL (swift build --traits PostgreSQL).

        Examples:
          clarissa state migrate --to postgres://clarissa@db.lan/clarissa?sslmode=verify-full
          clarissa state migrate --from postgres://clarissa@db.lan/clarissa --to clarissa.db
        """
    )

    @OptionGroup var options: StateOptions

    @Option(
      help: ArgumentHelp(
        "Where to copy to: a postgres:// URL, or a new SQLite file (with --from).",
        valueName: "url-or-file"))
    var to: String

    @Option(
      help: ArgumentHelp(
        "A postgres:// URL to copy from (default: the SQLite store).", valueName: "url"))
    var from: String?

    func validate() throws {
      let postgres = { (text: String) in
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
      }
      if let from {
        guard postgres(from) else { throw ValidationError("--from takes a postgres:// URL") }
        guard !postgres(to) else { throw ValidationError("--to: with --from, give a SQLite file") }
      } else if !postgres(to) {
        throw ValidationError("--to takes a postgres:// URL (or use --from URL --to FILE)")
      }
    }

    func run() throws {
      #if PostgreSQL
        do {
          let copied: StoreMigration.Copied
          if let from {
            // A copy is no worker: it takes no sources and must not count as one.
            let source = try PostgresStore.open(url: from, registering: false)
            let target = try ListingStore.open(path: to, readOnly: false)
            copied = try StoreMigration.copy(from: source, to: target)
            print("copied \(source.url) into \(to):")
          } else {
            guard
              let result = try options.writing(
                create: false,
                { store, _ in
                  let target = try PostgresStore.open(url: to, registering: false)
                  let copied = try StoreMigration.copy(from: store, to: target)
                  print("copied \(store.path) into \(target.url):")
                  return copied
                })
            else { return }
            copied = result
          }
          for entry in copied.tables where entry.rows > 0 {
            print("  \(entry.table): \(entry.rows)")
          }
          print("  \(copied.total) rows in all")
        } catch let problem as StoreProblem {
          Terminal.error("error: \(problem)\n")
          throw ExitStatus.stateUnusable.exitCode
        } catch let error as PostgresError {
          Terminal.error("error: \(error)\n")
          throw ExitStatus.stateUnusable.exitCode
        }
      #else
        Terminal.error(
          "error: this clarissa was built without PostgreSQL; build it with "
            + "'swift build --traits PostgreSQL' (Debian: apt-get install libpq-dev)\n")
        throw ExitStatus.failure.exitCode
      #endif
    }
  }
}
