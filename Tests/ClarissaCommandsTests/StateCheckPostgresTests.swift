import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// `clarissa state check` on a PostgreSQL store (the tests' own server): a sound store passes,
/// each kind of damage made by hand in SQL is named and exits 5, and no state command counts
/// as a worker.
@Suite(.serialized) struct StateCheckPostgresTests {
  #if PostgreSQL
    /// One kind of damage: the SQL that makes it, and the problem `state check` must name.
    struct Damage: CustomTestStringConvertible, Sendable {
      var name: String
      var sql: String
      var problem: String
      var testDescription: String { name }
    }

    static let damages: [Damage] = [
      Damage(
        name: "a count kept by the triggers, changed",
        sql: "UPDATE unviewed SET count = count + 3 WHERE search = 'ipads'",
        problem: "1 searches whose count of unviewed listings differs from a recount "
          + "(for example 'ipads kept "),
      Damage(
        name: "a trigger that keeps the counts, disabled",
        sql: "ALTER TABLE sightings DISABLE TRIGGER unviewed_sighting",
        problem: "1 triggers keeping the unviewed counts missing or disabled "
          + "(for example 'unviewed_sighting sightings disabled')"),
      Damage(
        name: "a delivery whose listing is gone",
        sql: """
          INSERT INTO deliveries(search, site, id, channel, state, owed_at)
            SELECT search, site, id, 'damage', 'owed', 0 FROM sightings
            WHERE search = 'ipads' ORDER BY id LIMIT 1;
          DELETE FROM sightings s USING deliveries d
            WHERE s.site = d.site AND s.id = d.id AND d.channel = 'damage';
          DELETE FROM listings l USING deliveries d
            WHERE l.site = d.site AND l.id = d.id AND d.channel = 'damage'
          """,
        problem: "1 deliveries of a listing the store does not have (for example 'ipads "),
      Damage(
        name: "a sighting whose listing is gone",
        sql: "DELETE FROM listings WHERE (site, id) IN "
          + "(SELECT site, id FROM sightings WHERE search = 'ipads' ORDER BY id LIMIT 1)",
        problem: "1 sightings of a listing the store does not have (for example 'ipads "),
      Damage(
        name: "a held listing the store lacks",
        sql:
          "INSERT INTO held(search, site, id, held_at) VALUES ('ipads', 'craigslist', 'gone', 0)",
        problem: "1 held listings the store does not have (for example 'ipads craigslist gone')"),
      Damage(
        name: "a recent listing the store lacks",
        sql:
          "INSERT INTO recent(search, site, id, found) VALUES ('ipads', 'craigslist', 'gone', 0)",
        problem: "1 recent listings the store does not have (for example 'ipads craigslist gone')"
      ),
      Damage(
        name: "a price of a listing the store lacks",
        sql: "INSERT INTO prices(site, id, seen_at, price) VALUES ('craigslist', 'gone', 1, 5)",
        problem: "1 price rows of a listing the store does not have "
          + "(for example 'craigslist gone 1')"),
      Damage(
        name: "a delivery marked delivered without a time",
        sql: "INSERT INTO deliveries(search, site, id, channel, state, owed_at) SELECT search, "
          + "site, id, 'damage', 'delivered', 0 FROM sightings ORDER BY search, id LIMIT 1",
        problem: "1 deliveries marked delivered without a time (for example '"),
      Damage(
        name: "a sighting last seen before it was first seen",
        // Out of its search's answer, whose time it would be last seen at otherwise.
        sql: "UPDATE sightings SET last_seen = first_seen - 1, in_answer = FALSE "
          + "WHERE (search, site, id) IN "
          + "(SELECT search, site, id FROM sightings ORDER BY search, id LIMIT 1)",
        problem: "1 sightings last seen before they were first seen (for example '"),
      Damage(
        name: "a sighting in an answer its search does not have",
        sql: "INSERT INTO sightings(search, site, id, first_seen, last_seen, in_answer) "
          + "SELECT 'lost', site, id, first_seen, last_seen, TRUE FROM sightings "
          + "ORDER BY search, id LIMIT 1",
        problem: "1 sightings in an answer their search does not have (for example 'lost "),
      Damage(
        name: "images that are not a JSON list",
        sql: "UPDATE listings SET images = 'not json' WHERE (site, id) IN "
          + "(SELECT site, id FROM listings ORDER BY id LIMIT 1)",
        problem: "1 listings with images that are not a JSON list (for example '"),
      Damage(
        name: "a lease held by a worker the store does not know",
        sql: "INSERT INTO leases(search, source, worker, taken_at, until) "
          + "VALUES ('ipads', 'https://gone.example/', 'gone-worker', 0, 1)",
        problem: "1 leases held by a worker the store does not know "
          + "(for example 'gone-worker ipads https://gone.example/')"),
      Damage(
        name: "a schema newer than this clarissa's",
        sql: "INSERT INTO clarissa_schema(version, migrated_at, by_clarissa) VALUES (99, 0, 'x')",
        problem: "schema version 99, where this clarissa writes \(PostgresSchema.current) "
          + "(upgrade this clarissa to check it)"),
      Damage(
        name: "a schema older than this clarissa's",
        sql: "DELETE FROM clarissa_schema WHERE version = \(PostgresSchema.current)",
        problem:
          "schema version \(PostgresSchema.current - 1), where this clarissa writes \(PostgresSchema.current) "
          + "(the next worker to start upgrades it)"),
      Damage(
        name: "the schema's table dropped", sql: "DROP TABLE clarissa_schema",
        problem: "no table 'clarissa_schema': not a clarissa store"),
    ]

    @Test func aSoundStorePassesWithTheURLMasked() throws {
      let url = try Self.rememberingStore()
      let server = try LoopbackPostgres.shared()
      // Some viewed (the triggers count them down), a lease held by a known worker.
      let marked = server.query(
        url,
        "UPDATE listings SET viewed_at = 1 WHERE (site, id) IN (SELECT site, id FROM sightings "
          + "WHERE search = 'ipads' ORDER BY id LIMIT 5); UPDATE leases SET done_at = NULL "
          + "WHERE (search, source) IN (SELECT search, source FROM leases LIMIT 1)")
      #expect(marked != nil)
      #expect(server.query(url, "SELECT count(*) FROM leases WHERE done_at IS NULL") == "1")
      let secret = url.replacingOccurrences(of: "clarissa@", with: "clarissa:hunter2@")
      let check = try CommandLineTests.run(["state", "check", "--state", secret])
      #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
      let masked = url.replacingOccurrences(of: "clarissa@", with: "clarissa:***@")
      #expect(check.stdout == "ok: '\(masked)' is sound\n")
    }

    @Test(arguments: damages) func eachDamageIsNamedAndExits5(_ damage: Damage) throws {
      let url = try Self.rememberingStore()
      let sound = try CommandLineTests.run(["state", "check", "--state", url])
      #expect(sound.status == 0, "\(sound.stdout)\(sound.stderr)")
      #expect(try LoopbackPostgres.shared().query(url, damage.sql) != nil, "the damage failed")
      let check = try CommandLineTests.run(["state", "check", "--state", url])
      #expect(check.status == 5)
      let problems = check.stdout.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
      #expect(problems.contains { $0.hasPrefix("problem: \(damage.problem)") }, "\(check.stdout)")
      #expect(
        check.stderr.hasPrefix("error: the state database '\(url)' has \(problems.count) problem"))
    }

    @Test func noStateCommandCountsAsAWorker() throws {
      let server = try LoopbackPostgres.shared()
      let empty = try server.database()
      let nothing = try CommandLineTests.run(["state", "check", "--state", empty])
      #expect(nothing.status == 0, "\(nothing.stderr)")
      #expect(nothing.stdout.hasPrefix("no clarissa store in '\(empty)' yet"))
      #expect(server.query(empty, "SELECT to_regclass('clarissa_schema') IS NULL") == "t")
      let url = try Self.rememberingStore()
      let workers = server.query(url, "SELECT count(*) FROM workers")
      #expect(workers == "1", "the run registered as one worker")
      let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
        "check-\(UUID().uuidString).db"
      ).path
      let commands: [[String]] = [
        ["info"], ["check"], ["export"], ["prune"], ["forget", "--search", "ipads"],
        ["cooldowns"], ["cooldowns", "--clear-all"], ["migrate", "--from", url, "--to", copy],
      ]
      for command in commands {
        _ = try CommandLineTests.run(["state"] + command + ["--state", url])
        #expect(
          server.query(url, "SELECT count(*) FROM workers") == workers,
          "'state \(command.joined(separator: " "))' registered as a worker")
      }
    }

    /// A new database holding what a first run of the bundled searches remembers.
    static func rememberingStore() throws -> String {
      let url = try LoopbackPostgres.shared().database("check")
      let run = try CommandLineTests.run([
        "run", "--replay", "Fixtures/replay/default", "--state", url, "--quiet",
      ])
      try #require(run.status == 0, "\(run.stderr)")
      return url
    }
  #endif
}
