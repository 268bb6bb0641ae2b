import FixtureSupport
import Foundation
import Synchronization
import Testing

/// An overload on loopback: `searches` feed searches spread over `hosts` feed servers (one
/// host:port each, the unit politeness applies to), each answering after `latency`, polled by
/// `clarissa watch` workers whose round is longer than the searches' interval; new items are
/// published while they work, and a webhook receiver records when each arrives. What the
/// overload tests assert and what `.ci/bench overload` prints come from here.
final class Overload: Sendable {
  struct Settings {
    var searches = 200
    var hosts = 10
    var interval = 10
    /// Seconds between two requests to one host, kept by all workers together.
    var politeness = 1.0
    var latency = 0.05
  }

  let settings: Settings
  /// The feed servers, one per host.
  private let feeds = Mutex<[LoopbackServer]>([])
  let hook: LoopbackServer
  private let state: Mutex<State>
  let folder: URL

  /// What is published, and the workers started.
  private struct State {
    /// Per feed, its items (newest last): id and when it appeared.
    var items: [[(id: Int, at: Date)]]
    var nextID = 1000
    var processes: [(name: String, process: Process, log: URL)] = []
  }

  init(_ settings: Settings) throws {
    self.settings = settings
    state = Mutex(
      State(
        items: (0..<settings.searches).map { _ in
          (1...3).map { (id: $0, at: Date.distantPast) }
        }))
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-overload-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    hook = try LoopbackServer { _, _ in .init(status: 200) }
    for _ in 0..<settings.hosts {
      // Weak: a request still being answered when the harness is gone (a worker polled as the
      // test ended; the server's stop does not wait for its handlers) gets a 503.
      let server = try LoopbackServer { [weak self] request, _ in
        guard let self else { return .init(status: 503) }
        let name = request.path.split(separator: "/").last.map { String($0.dropLast(4)) }
        let feed = name.flatMap { Int($0) } ?? 0
        // The feed as it was when asked (the request is logged on arrival): read after the
        // latency, an item published in between was in a search's first answer, so known
        // from the start and rightly never sent, while the scenario counted it lost
        // (once in 16 CI runs: the first item, published as the last feeds were answered).
        let shown = self.state.withLock { $0.items[min(feed, $0.items.count - 1)].suffix(20) }
        Thread.sleep(forTimeInterval: self.settings.latency)
        return .text(
          Self.rss(feed: feed, ids: shown.map(\.id)),
          headers: ["Content-Type": "application/rss+xml"])
      }
      feeds.withLock { $0.append(server) }
    }
  }

  deinit {
    stop()
    for server in feeds.withLock({ $0 }) { server.stop() }
    hook.stop()
    try? FileManager.default.removeItem(at: folder)
  }

  static func rss(feed: Int, ids: [Int]) -> String {
    let entries = ids.map {
      "<item><title>Flat \(feed)-\($0)</title><link>https://feeds.example.org/\(feed)/\($0)</link>"
        + "<guid>\(feed)-\($0)</guid><description>\($0) EUR</description></item>"
    }
    return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(feed)</title>"
      + entries.joined() + "</channel></rss>"
  }

  /// Writes the config: one search per feed, feeds dealt round-robin over the hosts.
  func writeConfig(store: String, lease: String = "20s") throws {
    var yaml = """
      version: 1
      defaults:
        site: feed
        interval: \(settings.interval)s
        notify: [hook]
      notify:
        hook: json://127.0.0.1:\(hook.port)/hook
      http:
        max_hosts: \(min(64, settings.hosts))
      state:
        \(store.hasPrefix("postgres") ? "url" : "path"): \(store)
        lease: \(lease)
      output:
        keep: 1
      searches:

      """
    for index in 0..<settings.searches {
      let host = feeds.withLock { $0[index % settings.hosts] }
      yaml += "  - name: s\(index)\n    feeds: [\(host.base)/feed/\(index).xml]\n"
    }
    try yaml.write(
      to: folder.appendingPathComponent("searches.yaml"), atomically: true, encoding: .utf8)
  }

  /// Starts `clarissa ARGUMENTS` as worker `name`, its output in a file of the folder.
  @discardableResult
  func start(_ name: String, _ arguments: [String]) throws -> Process {
    let process = Process()
    // Another build's binary, to compare with (the figures of docs/performance.md).
    let other = ProcessInfo.processInfo.environment["CLARISSA_OVERLOAD_BIN"]
    process.executableURL = try other.map(URL.init(fileURLWithPath:)) ?? CommandLineTests.binary()
    process.arguments = arguments + ["--politeness-delay", String(settings.politeness)]
    process.currentDirectoryURL = folder
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1", "CLARISSA_WORKER": name]
    let log = folder.appendingPathComponent("\(name)-\(state.withLock { $0.processes.count }).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    state.withLock { $0.processes.append((name, process, log)) }
    return process
  }

  /// Stops every process started (SIGTERM), waiting for each.
  func stop() {
    let started = state.withLock { $0.processes }
    for entry in started where entry.process.isRunning {
      kill(entry.process.processIdentifier, SIGTERM)
    }
    for entry in started { entry.process.waitUntilExit() }
  }

  /// What the workers printed, by worker.
  func logs() -> [String: String] {
    var texts: [String: String] = [:]
    for entry in state.withLock({ $0.processes }) {
      let text = (try? String(contentsOf: entry.log, encoding: .utf8)) ?? ""
      texts[entry.name, default: ""] += text
    }
    return texts
  }

  /// Publishes one new item in a feed chosen at random; returns its key (`feed/id`).
  @discardableResult
  func publish() -> String {
    state.withLock { state in
      let feed = Int.random(in: 0..<settings.searches)
      state.nextID += 1
      state.items[feed].append((state.nextID, Date()))
      return "\(feed)/\(state.nextID)"
    }
  }

  /// Every item published since the start, with when it appeared.
  func published() -> [String: Date] {
    state.withLock { state in
      var all: [String: Date] = [:]
      for (feed, list) in state.items.enumerated() {
        for item in list where item.at != .distantPast { all["\(feed)/\(item.id)"] = item.at }
      }
      return all
    }
  }

  /// Items delivered, with the arrival of each copy.
  func delivered() -> [String: [Date]] {
    var arrivals: [String: [Date]] = [:]
    let pattern = #/feeds\.example\.org/(\d+/\d+)/#
    for request in hook.requests {
      guard let match = request.text.firstMatch(of: pattern) else { continue }
      arrivals[String(match.1), default: []].append(request.arrived)
    }
    return arrivals
  }

  /// Per feed path, when it was fetched.
  func fetches() -> [String: [Date]] {
    var times: [String: [Date]] = [:]
    for server in feeds.withLock({ $0 }) {
      for request in server.requests { times[request.path, default: []].append(request.arrived) }
    }
    return times.mapValues { $0.sorted() }
  }

  /// Waits until `done` or `seconds` pass; returns whether it became true.
  @discardableResult
  func wait(upTo seconds: Double, until done: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if done() { return true }
      Thread.sleep(forTimeInterval: 0.25)
    }
    return done()
  }

  /// The most fetches a minute the hosts allow: one request per host every `politeness` seconds.
  /// At that pace each source is polled every `searches / hosts * politeness` seconds, and an
  /// item waits for its source's next poll half that on average (the p50 bound), 95% of it at
  /// the 95th percentile.
  var hostsAllow: Double { Double(settings.hosts) * 60 / settings.politeness }

  /// Every feed fetched at least once: every search primed (recorded once its answer is).
  func everyFeedFetched() -> Bool { fetches().count == settings.searches }

  /// What one overload run showed.
  struct Figures: CustomStringConvertible {
    var published = 0
    var delivered = 0
    var lost: [String] = []
    var repeated = 0
    var primedDelivered = 0
    var latencies: [Double] = []
    /// Fetches of a source closer together than its interval allows (twice in a round).
    var twiceInARound = 0
    var fetchesPerMinute = 0.0
    var seconds = 0.0

    func percentile(_ share: Double) -> Double {
      guard !latencies.isEmpty else { return .nan }
      let sorted = latencies.sorted()
      return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * share).rounded()))]
    }

    /// Rounds per minute: each source fetched this often, on average.
    func rounds(sources: Int) -> Double { fetchesPerMinute / Double(max(1, sources)) }

    var description: String {
      String(
        format:
          "%d published, %d delivered, %d lost, %d repeated; latency p50 %.1f s, p95 %.1f s, "
          + "max %.1f s; %d fetched twice in a round; %.0f fetches a minute",
        published, delivered, lost.count, repeated, percentile(0.5), percentile(0.95),
        latencies.max() ?? .nan, twiceInARound, fetchesPerMinute)
    }
  }

  /// The figures since `start` (when publishing began).
  func figures(since start: Date, until end: Date = Date()) -> Figures {
    var figures = Figures()
    let published = published()
    let delivered = delivered()
    figures.published = published.count
    figures.delivered = delivered.keys.filter { published[$0] != nil }.count
    figures.lost = published.keys.filter { delivered[$0] == nil }.sorted()
    figures.repeated = delivered.values.filter { $0.count > 1 }.count
    figures.primedDelivered = delivered.keys.filter { published[$0] == nil }.count
    figures.latencies = published.compactMap { key, at in
      delivered[key]?.min().map { $0.timeIntervalSince(at) }
    }
    // Due again an interval less its slack after the batch ended: closer than that is twice.
    let least = Double(settings.interval) - min(60, Double(settings.interval) / 10) - 0.5
    var fetched = 0
    for times in fetches().values {
      let window = times.filter { $0 >= start && $0 <= end }
      fetched += window.count
      figures.twiceInARound +=
        zip(times, times.dropFirst()).filter {
          $1.timeIntervalSince($0) < least
        }.count
    }
    figures.seconds = end.timeIntervalSince(start)
    figures.fetchesPerMinute = Double(fetched) / max(1, figures.seconds) * 60
    return figures
  }
}
