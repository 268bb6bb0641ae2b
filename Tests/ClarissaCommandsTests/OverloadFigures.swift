// The delivery-latency figures of docs/performance.md and docs/scaling.md: built with the trait
// PostgreSQL, run with CLARISSA_OVERLOAD_FIGURES=1 (.ci/bench overload).
#if PostgreSQL
  import FixtureSupport
  import Foundation
  import Testing

  /// Not a pass/fail check (the machine is shared): for 1 and 4 `watch` workers on one
  /// PostgreSQL store, 200 searches on 10 and on 50 hosts, 2 s between two requests to a host
  /// (a round of 40 s or more on 10 hosts against a 15 s interval), the time from an item
  /// appearing in its feed to its delivery, p50 and p95; rounds per minute; takeovers. With
  /// CLARISSA_OVERLOAD_BIN, the same for another build's binary (an older clarissa), measured in
  /// the same run. About three minutes per line.
  @Suite(.serialized) struct OverloadFigures {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CLARISSA_OVERLOAD_FIGURES"] != nil))
    func deliveryLatencyWithOneAndFourWorkersOnTenAndFiftyHosts() throws {
      let hostCounts =
        ProcessInfo.processInfo.environment["CLARISSA_OVERLOAD_HOSTS"]?.split(separator: ",")
        .compactMap { Int($0) } ?? [10, 50]
      var lines = [
        "hosts  workers  published  lost  repeated  p50      p95      max      rounds/min  takeovers"
      ]
      let server = try LoopbackPostgres.shared()
      for hosts in hostCounts {
        for workers in [1, 4] {
          var settings = Overload.Settings()
          settings.hosts = hosts
          settings.interval = 15
          settings.politeness = 2
          let overload = try Overload(settings)
          let store = try server.database("figures")
          try overload.writeConfig(store: store, lease: "20s")
          for worker in 1...workers { try overload.start("w\(worker)", ["watch"]) }
          let figures = OverloadTests.scenario(overload, publishing: 60, every: 0.5, drain: 180)
          let takeovers =
            server.query(store, "SELECT coalesce(sum(takeovers), 0) FROM leases") ?? "?"
          let cells: [(String, Int)] = [
            ("\(hosts)", 7), ("\(workers)", 9), ("\(figures.published)", 11),
            ("\(figures.lost.count)", 6), ("\(figures.repeated)", 10),
            (String(format: "%.1f s", figures.percentile(0.5)), 9),
            (String(format: "%.1f s", figures.percentile(0.95)), 9),
            (String(format: "%.1f s", figures.latencies.max() ?? .nan), 9),
            (String(format: "%.2f", figures.rounds(sources: settings.searches)), 12),
            (takeovers, 0),
          ]
          lines.append(
            cells.map {
              $0.0.padding(toLength: max($0.1, $0.0.count), withPad: " ", startingAt: 0)
            }.joined())
          print(lines.last ?? "")
        }
      }
      let binary = ProcessInfo.processInfo.environment["CLARISSA_OVERLOAD_BIN"] ?? "this build"
      print(
        "overload figures (\(binary); 200 searches, interval 15 s, 2 s between requests to a "
          + "host):\n" + lines.joined(separator: "\n"))
    }
  }
#endif
