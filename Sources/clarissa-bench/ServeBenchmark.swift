internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Serve
internal import Synchronization
internal import WebServer

/// `clarissa serve` over the 1,000,000-listing store of the `state` benchmark: a search's first
/// page (the page, its JSON, and the store's query alone), the searches page with its unviewed
/// counts beside the recount the store's triggers spare, then 10,000 requests from a loopback
/// client on keep-alive connections, with the process's resident memory every 1,000 requests.
/// Measured in a fresh process (its memory is its own, not the filling's).
struct ServeBenchmark {
  let folder: URL
  static let requests = 10_000
  static let connections = 4

  func run() {
    print("\nclarissa serve (1,000,000 listings in one search)")
    let path = folder.appendingPathComponent("serve.db").path
    guard StateBenchmark.filled(path) else { return }
    Bench.again(["serve-run", path])
  }

  /// The web app over `store` with one search, "big", open to any Host (no token).
  static func app(_ store: ListingStore) -> WebApp {
    let config = ServedConfig(
      path: "searches.yaml",
      searches: [
        ServedConfig.Search(
          name: "big", site: "craigslist", interval: 900, enabled: true,
          hosts: ["sfbay.craigslist.org"])
      ], problems: "", hasErrors: false)
    return WebApp(store: store, config: config, access: WebApp.Access(token: nil, hosts: []))
  }

  /// In the fresh process.
  static func measure(_ path: String) {
    guard let store = try? ListingStore.open(path: path, readOnly: false) else {
      print("  cannot open the store")
      return
    }
    let app = app(store)
    func get(_ target: String) -> WebResponse {
      app.handle(WebRequest(method: "GET", target: target))
    }
    print("  resident memory after opening: \(residentMB()) MB")
    let page = Bench.measure(runs: 21) { get("/listings?search=big") }
    let json = Bench.measure(runs: 21) { get("/api/listings?search=big") }
    var query = ListingQuery()
    query.searches = ["big"]
    query.limit = 49
    let sql = Bench.measure(runs: 21) { (try? store.listings(query)) as Any }
    let later = Bench.measure(runs: 21) { get("/listings?search=big&page=20") }
    let unviewed = Bench.measure(runs: 21) { get("/listings?search=big&unviewed=1") }
    let filtered = Bench.measure(runs: 21) { get("/listings?search=big&max=150") }
    let words = Bench.measure(runs: 5) { get("/listings?search=big&q=listing+999999") }
    let searches = Bench.measure(runs: 21) { get("/") }
    let recount = Bench.measure(runs: 3) { (try? store.check()) as Any }
    let detail = Bench.measure(runs: 21) { get("/listing/craigslist/7000500000") }
    print(
      "  a search's first page (48 cards, HTML): \(Bench.format(page)) ms (target: under 50 ms)")
    print("    the same page as JSON (/api/listings): \(Bench.format(json)) ms")
    print("    the store's query alone (49 rows, newest first): \(Bench.format(sql)) ms")
    print(
      "    page 20: \(Bench.format(later)) ms; unviewed only: \(Bench.format(unviewed)) ms; "
        + "price under 150: \(Bench.format(filtered)) ms")
    print(
      "    words that match one listing of a million (a scan, no index): \(Bench.format(words)) ms")
    print(
      "  the searches page with its unviewed counts (kept by triggers): \(Bench.format(searches)) ms"
    )
    print(
      "    beside counting them again (`state check`, which recounts): \(Bench.format(recount)) ms")
    print("  a listing's page: \(Bench.format(detail)) ms")
    load(app)
    // "Mark all viewed" on the million, then "unviewed only" with none left, and with 10 new.
    let start = Date()
    let marked = (try? store.markViewed(matching: query, at: StateBenchmark.now)) ?? 0
    print(
      "  'Mark all viewed' of \(marked) listings: \(Bench.format(Date().timeIntervalSince(start))) s "
        + "(one UPDATE; the triggers keep the count)")
    let none = Bench.measure(runs: 21) { get("/listings?search=big&unviewed=1") }
    let fresh = (0..<10).map { StateBenchmark.listing(StateBenchmark.total + 500 + $0) }
    _ = try? store.record(
      SearchRecord(
        search: "big", now: StateBenchmark.now.addingTimeInterval(60), seen: fresh, reached: true))
    let few = Bench.measure(runs: 21) { get("/listings?search=big&unviewed=1") }
    print(
      "  'unviewed only' once all are viewed: \(Bench.format(none)) ms; with 10 new ones: "
        + "\(Bench.format(few)) ms (from the unviewed listings' own index)")
    print(
      "  the store says: \((try? store.check())?.isEmpty == true ? "sound (state check)" : "PROBLEMS")"
    )
  }

  /// 10,000 requests on keep-alive connections; memory every 1,000.
  private static func load(_ app: WebApp) {
    guard let server = try? HTTPServer(address: "127.0.0.1:0", handler: app.handle) else {
      print("  cannot listen on 127.0.0.1")
      return
    }
    server.start()
    defer { server.stop() }
    let targets = [
      "/listings?search=big", "/", "/api/listings?search=big", "/listings?search=big&page=7",
      "/listing/craigslist/7000000042", "/healthz", "/api/searches", "/listings?search=big&max=300",
    ]
    let tally = LoadTally()
    let start = Date()
    let group = DispatchGroup()
    for connection in 0..<connections {
      group.enter()
      Thread {
        defer { group.leave() }
        guard var client = LoopbackClient(port: server.port) else {
          tally.add(failed: requests / connections)
          return
        }
        for index in 0..<(requests / connections) {
          let target = targets[(index + connection) % targets.count]
          let begin = DispatchTime.now().uptimeNanoseconds
          let status = client.get(target)
          let took = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
          tally.add(took, ok: status == 200)
        }
      }.start()
    }
    group.wait()
    let seconds = Date().timeIntervalSince(start)
    let (latencies, failures, memory) = tally.read()
    let sorted = latencies.sorted()
    func percentile(_ p: Double) -> Double {
      sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
    print(
      "  \(latencies.count) requests from \(connections) keep-alive loopback connections "
        + "(\(targets.count) pages and API answers in turn): \(Bench.format(seconds)) s, "
        + "\(Int(Double(latencies.count) / seconds)) per second, \(failures) not 200")
    print(
      "    latency: median \(Bench.format(percentile(0.5))) ms, 99th percentile "
        + "\(Bench.format(percentile(0.99))) ms, slowest \(Bench.format(sorted.last ?? 0)) ms")
    print(
      "    resident memory every 1,000 requests (MB): "
        + memory.map(String.init).joined(separator: " "))
    print("    peak: \(StateBenchmark.peakMB()) MB")
  }

  /// VmRSS of this process, in MB.
  static func residentMB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
  }
}

/// What the load's connections found, shared between their threads.
private final class LoadTally: Sendable {
  private let tally = Mutex(
    (latencies: [Double](), failures: 0, memory: [ServeBenchmark.residentMB()]))

  func add(_ milliseconds: Double, ok: Bool) {
    tally.withLock { tally in
      tally.latencies.append(milliseconds)
      if !ok { tally.failures += 1 }
      if tally.latencies.count % 1_000 == 0 { tally.memory.append(ServeBenchmark.residentMB()) }
    }
  }

  func add(failed: Int) { tally.withLock { $0.failures += failed } }

  func read() -> ([Double], Int, [Int]) {
    tally.withLock { ($0.latencies, $0.failures, $0.memory) }
  }
}
