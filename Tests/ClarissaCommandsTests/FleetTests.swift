import Synchronization

// Workers sharing a PostgreSQL store: built with the trait PostgreSQL only.
#if PostgreSQL
  import FixtureSupport
  import Foundation
  import Testing

  /// Four `clarissa run` processes on one PostgreSQL store (a real server on 127.0.0.1), 500
  /// searches on a loopback feed server, deliveries to a loopback webhook: over several rounds
  /// no source is fetched twice in a round, no listing is announced twice, none is lost; a worker
  /// killed mid-round (SIGKILL) leaves its sources to the others once its lease runs out.
  @Suite(.serialized) struct FleetTests {
    /// The feeds and the webhook, and what they saw.
    final class Sites: Sendable {
      /// What the feeds answer now: `round + 2` items each, after `latency` seconds.
      final class Answers: Sendable {
        private let answers = Mutex((round: 1, latency: 0.0))

        var now: (round: Int, latency: Double) { answers.withLock { $0 } }

        func set(round: Int? = nil, latency: Double? = nil) {
          answers.withLock {
            $0.round = round ?? $0.round
            $0.latency = latency ?? $0.latency
          }
        }
      }

      let answers: Answers
      let feeds: LoopbackServer
      let hook: LoopbackServer

      init() throws {
        let answers = Answers()
        self.answers = answers
        feeds = try LoopbackServer { request, _ in
          let (round, latency) = answers.now
          if latency > 0 { Thread.sleep(forTimeInterval: latency) }
          let feed = request.path.split(separator: "/").last.map { String($0.dropLast(4)) } ?? "?"
          return .text(
            FleetTests.rss(feed: feed, items: round + 2),
            headers: ["Content-Type": "application/rss+xml"])
        }
        hook = try LoopbackServer { _, _ in .init(status: 200) }
      }

      /// Feed paths asked since `start`, with how many times each.
      func asked(since start: Date) -> [String: Int] {
        var counts: [String: Int] = [:]
        for request in feeds.requests where request.arrived >= start {
          counts[request.path, default: 0] += 1
        }
        return counts
      }

      /// Listings announced, with how many times each (one JSON message per listing).
      func announced() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let pattern = try NSRegularExpression(pattern: "feeds\\.example\\.org/(\\d+)/(\\d+)")
        for request in hook.requests {
          let text = request.text
          guard
            let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range, in: text)
          else { continue }
          counts[String(text[range]), default: 0] += 1
        }
        return counts
      }
    }

    static let searches = 500

    static func rss(feed: String, items: Int) -> String {
      let entries = (1...items).map {
        "<item><title>Bike \(feed)-\($0)</title><link>https://feeds.example.org/\(feed)/\($0)</link>"
          + "<guid>\(feed)-\($0)</guid><description>$\($0)0</description></item>"
      }
      return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(feed)</title>"
        + entries.joined() + "</channel></rss>"
    }

    /// A folder with the fleet's config: `searches` searches, one feed each.
    static func folder(
      _ sites: Sites, store: String, lease: String, interval: String,
      searches: Int = FleetTests.searches
    ) throws -> URL {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "clarissa-fleet-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      var yaml = """
        version: 1
        defaults:
          site: feed
          interval: \(interval)
          notify: [hook]
        notify:
          hook: json://127.0.0.1:\(sites.hook.port)/hook
        state:
          url: \(store)
          lease: \(lease)
        output:
          keep: 1
        searches:

        """
      for index in 0..<searches {
        yaml += "  - name: s\(index)\n    feeds: [\(sites.feeds.base)/feed/\(index).xml]\n"
      }
      try yaml.write(
        to: folder.appendingPathComponent("searches.yaml"), atomically: true, encoding: .utf8)
      return folder
    }

    /// Starts a worker (`clarissa run`) named `name`.
    static func worker(_ name: String, in folder: URL) throws -> (Process, Pipe) {
      let process = Process()
      process.executableURL = try CommandLineTests.binary()
      process.arguments = ["run", "--politeness-delay", "0", "--quiet"]
      process.currentDirectoryURL = folder
      process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1", "CLARISSA_WORKER": name]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      try process.run()
      return (process, output)
    }

    /// Runs workers `w<n>` for each of `numbers` at once, to their end (the first is killed,
    /// SIGKILL, as soon as `victim` says so); returns the seconds the round took.
    @discardableResult
    static func round(
      _ numbers: ClosedRange<Int>, in folder: URL, killing victim: (() -> Bool)? = nil
    ) throws -> Double {
      let start = Date()
      let workers = try numbers.map { try worker("w\($0)", in: folder) }
      if let victim {
        let deadline = Date().addingTimeInterval(30)
        while !victim() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(Date() < deadline, "the worker to kill never held a lease")
        kill(workers[0].0.processIdentifier, SIGKILL)
      }
      for (process, output) in workers {
        let text = String(
          decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationReason == .exit {
          #expect(process.terminationStatus == 0, "\(text)")
        }
      }
      return Date().timeIntervalSince(start)
    }

    /// The leases taken over so far, as `state info` says them ("leases: ..., N taken over so
    /// far").
    static func takeovers(_ info: String) -> Int? {
      info.split(separator: "\n").first { $0.hasPrefix("leases:") }?.split(separator: ",")
        .last?.split(separator: " ").first.flatMap { Int($0) }
    }

    static func info(_ folder: URL) throws -> String {
      let outcome = try CommandLineTests.run(["state", "info"], in: folder)
      #expect(outcome.status == 0, "\(outcome.stderr)")
      return outcome.stdout
    }

    @Test(.timeLimit(.minutes(5)))
    func fourWorkersShareTheSourcesAndTheDeliveriesAndTakeOverAKilledOnesWork() throws {
      let sites = try Sites()
      let store = try LoopbackPostgres.shared().database("fleet")
      let folder = try Self.folder(sites, store: store, lease: "4s", interval: "15s")
      let paths = Set((0..<Self.searches).map { "/feed/\($0).xml" })

      // Round 1 primes every search; round 2 finds one new listing in each feed.
      for round in 1...2 {
        sites.answers.set(round: round)
        let start = Date()
        try Self.round(1...4, in: folder)
        let asked = sites.asked(since: start)
        #expect(Set(asked.keys) == paths, "round \(round): every source fetched")
        #expect(asked.values.filter { $0 > 1 }.isEmpty, "round \(round): none fetched twice")
        Thread.sleep(forTimeInterval: 15)  // the interval: every source is due again
      }
      var announced = try sites.announced()
      #expect(announced.count == Self.searches, "one new listing per feed in round 2")
      #expect(announced.values.allSatisfy { $0 == 1 }, "none announced twice")

      // Round 3: one worker killed mid-round. The others do their share; what it held comes
      // back to them when its lease (4 s) runs out; the sources done this round are not due
      // again before the interval (15 s).
      sites.answers.set(round: 3, latency: 0.01)
      let start = Date()
      // Killed while it holds sources it has not finished: mid-round, whatever the machine's
      // speed.
      let server = try LoopbackPostgres.shared()
      try Self.round(1...4, in: folder) {
        let held = server.query(
          store, "SELECT count(*) FROM leases WHERE worker = 'w1' AND done_at IS NULL")
        return (held.flatMap { Int($0) } ?? 0) > 0
      }
      // Its lease lapsed, or on a slow machine (a round longer than the lease after the kill)
      // another worker of the same round took it over already.
      let lapsed = try Self.info(folder)
      #expect(
        !lapsed.contains(" 0 held now, 0 lapsed") || (Self.takeovers(lapsed) ?? 0) > 0,
        "the killed worker's lease: \(lapsed)")
      Thread.sleep(forTimeInterval: 4.5)
      try Self.round(2...4, in: folder)
      let asked = sites.asked(since: start)
      #expect(Set(asked.keys) == paths, "every source fetched, the killed worker's included")
      let twice = asked.values.filter { $0 > 1 }.count
      #expect(twice <= 32, "only what the killed worker held is fetched again (\(twice))")
      let after = try Self.info(folder)
      #expect(after.contains(" 0 lapsed"), "\(after)")
      let takeovers = try #require(Self.takeovers(after))
      #expect(takeovers > 0 && twice <= takeovers, "what the killed worker held was taken over")
      announced = try sites.announced()
      #expect(announced.count == 2 * Self.searches, "none lost: one new listing per feed per round")
      let repeated = announced.values.filter { $0 > 1 }.count
      #expect(repeated <= 1, "a kill repeats at most the one delivery in flight (\(repeated))")
      print(
        "fleet: 4 workers, \(Self.searches) searches, 3 rounds; round 3 fetched again "
          + "\(twice) sources after a SIGKILL (\(takeovers) taken over); \(repeated) deliveries "
          + "repeated\n\(after)")
    }

    /// A round longer than the interval (60 feeds answering in 0.5 s, a 3 s interval): four
    /// `clarissa run` workers started together fetch each source once, however long their round
    /// lasts. (Each worker took again what the others had done, once its interval had passed
    /// during the round: 800 requests for 200 sources on 10 hosts in the bench.)
    @Test(.timeLimit(.minutes(3)))
    func aRoundLongerThanTheIntervalFetchesEachSourceOnce() throws {
      let sites = try Sites()
      sites.answers.set(latency: 0.5)
      let store = try LoopbackPostgres.shared().database("longround")
      let count = 60
      let folder = try Self.folder(
        sites, store: store, lease: "30s", interval: "3s", searches: count)
      let start = Date()
      let seconds = try Self.round(1...4, in: folder)
      let asked = sites.asked(since: start)
      let requests = asked.values.reduce(0, +)
      print(
        "fleet: 4 run workers, \(count) sources, a round of "
          + String(
            format: "%.1f s against a 3 s interval: %d requests, %.2f a source", seconds, requests,
            Double(requests) / Double(count)))
      #expect(seconds > 3, "the round outlasts the interval")
      #expect(asked.count == count, "every source fetched")
      #expect(Double(requests) / Double(count) == 1.0, "requests per source per round")
    }

    /// The figures of docs/performance.md (not a pass/fail check: the machine is shared): a round
    /// of 500 searches with 1, 2 and 4 workers against a feed server that answers in 50 ms. Run
    /// with CLARISSA_FLEET_FIGURES=1 (.ci/bench fleet); it takes about three minutes.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CLARISSA_FLEET_FIGURES"] != nil))
    func roundTimesWithOneTwoAndFourWorkers() throws {
      var lines = [
        "workers  round 1 (primes)  round 2 (500 new, delivered)  requests  fetched twice  announced twice"
      ]
      for count in [1, 2, 4] {
        let sites = try Sites()
        sites.answers.set(latency: 0.05)
        let store = try LoopbackPostgres.shared().database("figures")
        let folder = try Self.folder(sites, store: store, lease: "5m", interval: "30s")
        let start = Date()
        let first = try Self.round(1...count, in: folder)
        // Due again 30 s less the slack (3 s) after each source was done: the last, now.
        Thread.sleep(forTimeInterval: 27.5)
        sites.answers.set(round: 2)
        let second = try Self.round(1...count, in: folder)
        let asked = sites.asked(since: start)
        let announced = try sites.announced()
        #expect(announced.count == Self.searches)
        lines.append(
          [
            ("\(count)", 9), (String(format: "%.1f s", first), 18),
            (String(format: "%.1f s", second), 30), ("\(asked.values.reduce(0, +))", 10),
            ("\(asked.values.filter { $0 > 2 }.count)", 15),
            ("\(announced.values.filter { $0 > 1 }.count)", 0),
          ].map { $0.0.padding(toLength: max($0.1, $0.0.count), withPad: " ", startingAt: 0) }
            .joined())
      }
      print("fleet figures (feed server answering in 50 ms):\n" + lines.joined(separator: "\n"))
    }
  }
#endif
