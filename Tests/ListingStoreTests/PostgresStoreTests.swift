import Synchronization

// Built with the trait PostgreSQL only (swift build --traits PostgreSQL).
#if PostgreSQL
  import ClarissaCore
  import FixtureSupport
  import Foundation
  import Testing

  @testable import ListingStore

  /// The PostgreSQL store against a real server (Debian's, started on 127.0.0.1 by the tests):
  /// the schema made once under an advisory lock, a worker older than the schema refused, the
  /// unviewed counts kept by the same rules as in SQLite, and messages that name the server
  /// without its password.
  @Suite(.serialized) struct PostgresStoreTests {
    @Test func theSchemaIsMadeOnceHoweverManyWorkersStartTogether() throws {
      let url = try LoopbackPostgres.shared().database()
      let results = Results()
      let group = DispatchGroup()
      for _ in 0..<8 {
        group.enter()
        Thread {
          defer { group.leave() }
          do {
            results.add(try PostgresStore.open(url: url).schemaVersion())
          } catch {
            results.add(error)
          }
        }.start()
      }
      group.wait()
      #expect(results.errors.isEmpty, "\(results.errors)")
      #expect(results.versions == Array(repeating: PostgresSchema.current, count: 8))
      let store = try PostgresStore.open(url: url)
      #expect(try store.migrations().map(\.version) == Array(1...PostgresSchema.current))
    }

    /// A source is due by when the worker's round began: one another worker did during the
    /// round is not taken again in it, however long the round lasts; the next round takes it.
    @Test func aSourceDoneDuringARoundIsNotTakenAgainInIt() throws {
      let url = try LoopbackPostgres.shared().database("round")
      let (a, b) = (
        try PostgresStore.open(url: url, worker: "a", lease: 30),
        try PostgresStore.open(url: url, worker: "b", lease: 30)
      )
      let key = SourceKey(search: "s", url: "http://127.0.0.1/feed.xml")
      let wanted = [WantedSource(key: key, every: 10)]
      let round = Date()  // b's round begins
      let done = round.addingTimeInterval(2)
      #expect(try a.take(wanted, limit: 1, round: round, now: round).keys == [key])
      try a.finish([key], at: done)
      // 15 s on, due again by the clock (done + 10 s), but not by b's round's start.
      let later = round.addingTimeInterval(15)
      #expect(try b.take(wanted, limit: 1, round: round, now: later).keys.isEmpty)
      // b's next round, begun then, takes it.
      #expect(try b.take(wanted, limit: 1, round: later, now: later).keys == [key])
    }

    @Test func aWorkerOlderThanTheSchemaRefusesToStart() throws {
      let url = try LoopbackPostgres.shared().database()
      let store = try PostgresStore.open(url: url)
      try store.locked {
        try $0.run(
          "INSERT INTO clarissa_schema(version, migrated_at, by_clarissa) VALUES($1, 0, 'later')",
          [.int(PostgresSchema.current + 1)])
      }
      do {
        _ = try PostgresStore.open(url: url)
        Issue.record("an older worker started on a newer schema")
      } catch let problem as StoreProblem {
        #expect(
          problem.message.contains(
            "is at schema version \(PostgresSchema.current + 1), newer than this clarissa reads (\(PostgresSchema.current))"
          ))
        #expect(problem.message.contains("Upgrade this one; the database was not changed"))
      }
      #expect(try store.schemaVersion() == PostgresSchema.current + 1)
    }

    @Test func aServerThatCannotBeReachedIsNamedWithoutItsPassword() {
      do {
        _ = try PostgresStore.open(
          url: "postgres://clarissa:hunter2@127.0.0.1:1/none?connect_timeout=2")
        Issue.record("connected to nothing")
      } catch {
        let text = "\(error)"
        #expect(text.contains("postgres://clarissa:***@127.0.0.1:1/none"))
        #expect(text.contains("cannot connect"))
        #expect(!text.contains("hunter2"))
      }
    }

    /// The same writes in both engines, in an order a run, an import and a prune can take: the
    /// counts of unviewed listings agree at every step.
    @Test func unviewedCountsFollowTheSameRulesInBothEngines() throws {
      let steps = [
        "INSERT INTO listings(site, id, url, title, description, first_seen, last_seen) VALUES ('s', '1', 'u', 't', '', 1, 1)",
        "INSERT INTO sightings(search, site, id, first_seen, last_seen) VALUES ('a', 's', '1', 1, 1)",
        "INSERT INTO sightings(search, site, id, first_seen, last_seen) VALUES ('b', 's', '1', 1, 1)",
        // A sighting before its listing (an import's order), the listing then arriving viewed.
        "INSERT INTO sightings(search, site, id, first_seen, last_seen) VALUES ('a', 's', '2', 1, 1)",
        "INSERT INTO listings(site, id, url, title, description, first_seen, last_seen, viewed_at) VALUES ('s', '2', 'u', 't', '', 1, 1, 5)",
        "UPDATE listings SET viewed_at = 7 WHERE site = 's' AND id = '1'",
        "UPDATE listings SET viewed_at = 8 WHERE site = 's' AND id = '1'",
        "UPDATE listings SET viewed_at = NULL WHERE site = 's' AND id = '2'",
        "DELETE FROM sightings WHERE search = 'a' AND id = '2'",
        "DELETE FROM listings WHERE id = '1'",
        "DELETE FROM sightings WHERE id = '1'",
      ]
      // What SQLite counts after each step (0s left out), checked too: the steps are not idle.
      let counted: [[String: Int]] = [
        [:], ["a": 1], ["a": 1, "b": 1], ["a": 2, "b": 1], ["a": 1, "b": 1], [:], [:], ["a": 1],
        [:], ["a": 1, "b": 1], [:],
      ]
      let sqlite = try ListingStore.open(path: ":memory:", readOnly: false)
      let postgres = try PostgresStore.open(url: try LoopbackPostgres.shared().database())
      for (number, step) in steps.enumerated() {
        try sqlite.locked { try $0.execute(step) }
        try postgres.locked { try $0.execute(script: step) }
        let expected = try sqlite.unviewedCounts().filter { $0.value != 0 }
        let found = try postgres.unviewedCounts().filter { $0.value != 0 }
        #expect(expected == counted[number], "SQLite, after step \(number + 1): \(step)")
        #expect(found == expected, "after step \(number + 1): \(step)")
      }
      #expect(try sqlite.check().isEmpty)
    }
  }

  /// What the workers of a test found, from their threads.
  private final class Results: Sendable {
    private let found = Mutex((versions: [Int](), errors: [String]()))
    var versions: [Int] { found.withLock { $0.versions } }
    var errors: [String] { found.withLock { $0.errors } }
    func add(_ version: Int) { found.withLock { $0.versions.append(version) } }
    func add(_ error: Error) { found.withLock { $0.errors.append("\(error)") } }
  }
#endif
