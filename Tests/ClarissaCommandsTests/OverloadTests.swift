import FixtureSupport
import Foundation
import Testing

/// Rounds longer than the interval: 200 feed searches on 10 loopback hosts, one request a
/// second per host (a round of 20 s or more against a 10 s interval), new items published while
/// the workers poll. Every item is delivered once, none that was there before the search's
/// first answer is, no source is fetched twice in a round, and no batch is taken over from a
/// live worker. Each scenario takes about two minutes.
@Suite(.serialized) struct OverloadTests {
  /// Waits for every search's first answer, publishes an item every `every` seconds for
  /// `seconds`, then waits until every item arrived (or `drain` passed) and stops the workers.
  static func scenario(
    _ overload: Overload, publishing seconds: Double, every: Double, drain: Double,
    meanwhile: (() -> Void)? = nil
  ) -> Overload.Figures {
    let primed = overload.wait(upTo: 240) { overload.everyFeedFetched() }
    #expect(primed, "every search answered once: \(overload.fetches().count) feeds fetched")
    let start = Date()
    var tick = Date()
    while Date().timeIntervalSince(start) < seconds {
      overload.publish()
      Thread.sleep(forTimeInterval: every)
      if Date().timeIntervalSince(tick) >= 5 {
        tick = Date()
        meanwhile?()
      }
    }
    let keys = Set(overload.published().keys)
    overload.wait(upTo: drain) {
      meanwhile?()
      return keys.isSubset(of: Set(overload.delivered().keys))
    }
    let end = Date()
    overload.stop()
    return overload.figures(since: start, until: end)
  }

  /// What every scenario must show.
  static func expectNothingLost(_ figures: Overload.Figures, _ overload: Overload) {
    #expect(figures.published > 0)
    #expect(figures.lost.isEmpty, "never delivered: \(figures.lost.prefix(10))")
    #expect(figures.repeated == 0, "delivered twice without a kill")
    #expect(figures.primedDelivered == 0, "listings there before a search's first answer")
    #expect(figures.twiceInARound == 0, "sources fetched twice in a round")
    let logs = overload.logs().values.joined()
    // What another worker took is one line a round, never one per search.
    #expect(!logs.contains(": not due\n"), "a line per search not due")
  }

  @Test(.timeLimit(.minutes(6)))
  func aWatchAndRunsFromCronOnOneSQLiteStoreDeliverEveryItemOnce() throws {
    let overload = try Overload(Overload.Settings())
    try overload.writeConfig(store: "clarissa.db")
    try overload.start("watch", ["watch"])
    // A cron job every 5 s: each waits for the watch's lock (5 s), and the watch for it.
    var crons: [Process] = []
    let figures = Self.scenario(overload, publishing: 40, every: 0.4, drain: 120) {
      if let cron = try? overload.start("cron", ["run"]) { crons.append(cron) }
    }
    for cron in crons { cron.waitUntilExit() }
    // Those still waiting for the lock when the scenario ended were stopped (SIGTERM).
    let statuses = crons.filter { $0.terminationReason == .exit }.map(\.terminationStatus)
    let ran = statuses.filter { $0 == 0 }.count
    print(
      "overload, SQLite, 1 watch and \(crons.count) cron runs (\(ran) ran, "
        + "\(statuses.count - ran) found the lock held throughout): \(figures)")
    Self.expectNothingLost(figures, overload)
    // A cron run either ran (0) or found the watch's lock held throughout its wait (5).
    #expect(statuses.allSatisfy { $0 == 0 || $0 == 5 }, "cron exit statuses \(statuses)")
    let watch = overload.logs()["watch"] ?? ""
    #expect(watch.contains("behind: "), "the watch says it is behind:\n\(watch.suffix(2000))")
    #expect(!watch.contains("error:"), "\(watch.suffix(2000))")
  }

  #if PostgreSQL
    @Test(.timeLimit(.minutes(6)))
    func fourWatchWorkersOnOnePostgreSQLStoreDeliverEveryItemOnce() throws {
      let overload = try Overload(Overload.Settings())
      let server = try LoopbackPostgres.shared()
      let store = try server.database("overload")
      try overload.writeConfig(store: store, lease: "6s")
      for worker in 1...4 { try overload.start("w\(worker)", ["watch"]) }
      let figures = Self.scenario(overload, publishing: 40, every: 0.4, drain: 120)
      let takeovers = server.query(store, "SELECT coalesce(sum(takeovers), 0) FROM leases")
      print("overload, PostgreSQL, 4 watch workers: \(figures); takeovers \(takeovers ?? "?")")
      Self.expectNothingLost(figures, overload)
      #expect(takeovers == "0", "a batch taken over from a live worker")
      // The hosts' pace is the bound: the fleet polls close to as often as they allow.
      let share = figures.fetchesPerMinute / overload.hostsAllow
      let poll =
        Double(overload.settings.searches / overload.settings.hosts)
        * overload.settings.politeness
      print(
        String(
          format: "overload, PostgreSQL, 4 watch workers: %.0f%% of the hosts' pace; latency "
            + "p50 %.1f s, p95 %.1f s against the hosts' bound of %.1f s, %.1f s (a poll every "
            + "%.0f s)", share * 100, figures.percentile(0.5), figures.percentile(0.95),
          poll / 2, poll * 0.95, poll))
      #expect(share >= 0.75, "the fleet used \(Int(share * 100))% of the hosts' pace")
      try Self.expectTrueTimes(overload, figures, server: server, store: store)
      let logs = overload.logs()
      #expect(logs.values.contains { $0.contains("behind: ") }, "a worker says it is behind")
      for (worker, log) in logs {
        #expect(!log.contains("error:"), "\(worker): \(log.suffix(2000))")
      }
    }

    /// No item first seen before it was published (a run's answer is stamped when it came),
    /// and `state check` clean.
    static func expectTrueTimes(
      _ overload: Overload, _ figures: Overload.Figures, server: LoopbackPostgres, store: String
    ) throws {
      // Stamped when its answer came: no item is first seen before it was published.
      let firstSeen = Dictionary(
        (server.query(store, "SELECT id || '|' || first_seen FROM sightings") ?? "")
          .split(separator: "\n").compactMap { line -> (String, Double)? in
            let cells = line.split(separator: "|")
            guard cells.count == 2, let time = Double(cells[1]) else { return nil }
            return (String(cells[0]), time)
          }, uniquingKeysWith: min)
      let early = overload.published().filter { key, at in
        let seen = firstSeen[key.replacingOccurrences(of: "/", with: "-")]
        return seen.map { $0 < at.timeIntervalSince1970 } ?? false
      }
      #expect(firstSeen.count >= figures.published, "every item has a sighting")
      #expect(early.isEmpty, "\(early.count) items first seen before they were published")
      let check = try CommandLineTests.run(["state", "check"], in: overload.folder)
      #expect(check.status == 0, "state check: \(check.stdout)\(check.stderr)")
    }

    /// The same overload, with a worker killed (SIGKILL) and a new one started every 5 s three
    /// times, as a supervisor restarts them: nothing lost, a kill repeats at most the delivery
    /// it was making, no item first seen before it was published, `state check` clean.
    @Test(.timeLimit(.minutes(6)))
    func fourWatchWorkersKilledUnderOverloadLoseNothing() throws {
      let overload = try Overload(Overload.Settings())
      let server = try LoopbackPostgres.shared()
      let store = try server.database("overload_kills")
      try overload.writeConfig(store: store, lease: "6s")
      var workers = try (1...4).map { try overload.start("w\($0)", ["watch"]) }
      var kills = 0
      let figures = Self.scenario(overload, publishing: 40, every: 0.4, drain: 120) {
        guard kills < 3 else { return }
        kill(workers[kills].processIdentifier, SIGKILL)
        kills += 1
        if let next = try? overload.start("w\(4 + kills)", ["watch"]) { workers.append(next) }
      }
      print("overload, PostgreSQL, 4 watch workers, \(kills) killed and replaced: \(figures)")
      #expect(kills == 3)
      #expect(figures.published > 0)
      #expect(figures.lost.isEmpty, "never delivered: \(figures.lost.prefix(10))")
      #expect(figures.repeated <= kills, "a kill repeats at most the delivery in flight")
      #expect(figures.primedDelivered == 0, "listings there before a search's first answer")
      try Self.expectTrueTimes(overload, figures, server: server, store: store)
    }
  #endif
}
