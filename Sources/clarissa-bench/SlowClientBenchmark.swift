internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Serve
internal import Synchronization
internal import WebServer

#if canImport(Glibc)
  internal import Glibc
#endif

/// `clarissa serve`'s HTTP server against slow and many clients, over a store of 5,000 listings
/// in one search: 1,000 connections reading an answer a byte every 5 s and 1,000 sending a
/// header a byte every 5 s while `/healthz` and a listings page are asked 100 times each (on
/// fresh connections, as a monitor would); then requests per second from 1, 16 and 256
/// keep-alive connections on `/` and `/api/listings` (wrk, when installed); resident memory
/// over 100,000 requests (the searches page, a listing's, `/healthz`, a stylesheet); wrong
/// tokens a second from one address. A few minutes.
struct SlowClientBenchmark {
  let folder: URL
  static let slowEach = 1_000
  static let probes = 100

  func run() {
    // A peer that closed must not end the benchmark.
    signal(SIGPIPE, SIG_IGN)
    print("\nclarissa serve's HTTP server: slow clients, throughput, memory (5,000 listings)")
    let path = folder.appendingPathComponent("slow.db").path
    guard let store = try? ListingStore.open(path: path, readOnly: false) else {
      print("  cannot open a store in \(folder.path)")
      return
    }
    // Seen 100 at a time, a minute apart, as rounds would record them.
    for batch in 0..<50 {
      let listings = (batch * 100..<(batch * 100 + 100)).map(StateBenchmark.listing)
      _ = try? store.record(
        SearchRecord(
          search: "big", now: StateBenchmark.now.addingTimeInterval(Double(batch) * 60),
          seen: listings, reached: true))
    }
    let app = ServeBenchmark.app(store)
    guard let server = try? HTTPServer(address: "127.0.0.1:0", handler: app.handle) else {
      print("  cannot listen on 127.0.0.1")
      return
    }
    server.start()
    defer { server.stop() }
    print("  resident memory before: \(ServeBenchmark.residentMB()) MB")
    fflush(nil)
    slowClients(server.port)
    fflush(nil)
    throughput(server.port)
    fflush(nil)
    memory(server.port)
    fflush(nil)
    let guarded = WebApp(
      store: store, config: app.config,
      access: WebApp.Access(token: "bench-token-0123456789abcdef", hosts: []))
    if let tokened = try? HTTPServer(address: "127.0.0.1:0", handler: guarded.handle) {
      tokened.start()
      guesses(tokened.port)
      tokened.stop()
    }
  }

  // MARK: - Slow clients

  private func slowClients(_ port: UInt16) {
    let crowd = SlowCrowd(port: port, count: Self.slowEach)
    let start = Date()
    crowd.connectAll()
    print(
      "  \(Self.slowEach) slow readers and \(Self.slowEach) slow header senders connected in "
        + "\(Bench.format(Date().timeIntervalSince(start))) s")
    let ticking = Thread { crowd.tickUntilStopped() }
    ticking.start()
    // Each reader's page is made first (a thousand listings pages: load, not slowness).
    Thread.sleep(forTimeInterval: 8)
    var health: [Double] = []
    var page: [Double] = []
    var failed = 0
    for _ in 0..<Self.probes {
      for (target, into) in [("/healthz", 0), ("/listings?search=big", 1)] {
        let begin = DispatchTime.now().uptimeNanoseconds
        var status = 0
        if var client = LoopbackClient(port: port, timeout: 10) {
          status = client.get(target)
          client.close()
        }
        let took = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6
        if status != 200 {
          failed += 1
        } else if into == 0 {
          health.append(took)
        } else {
          page.append(took)
        }
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    let tally = crowd.stop()
    func line(_ name: String, _ times: [Double]) -> String {
      let sorted = times.sorted()
      guard !sorted.isEmpty else { return "\(name): never answered 200" }
      func at(_ p: Double) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
      }
      return "\(name): p50 \(Bench.format(at(0.5))) ms, p99 \(Bench.format(at(0.99))) ms, "
        + "slowest \(Bench.format(sorted.last ?? 0)) ms"
    }
    print(
      "  meanwhile, \(Self.probes) of each on fresh connections, latency of those answered 200 "
        + "(target: p99 under 100 ms):")
    print("    \(line("/healthz", health))")
    print("    \(line("/listings?search=big", page))")
    print("    not answered 200: \(failed) of \(2 * Self.probes)")
    print(
      "    slow clients closed by the server: \(tally.readersClosed) readers, "
        + "\(tally.sendersClosed) senders (each connected again); refused at connect: "
        + "\(tally.refused); resident memory then: \(ServeBenchmark.residentMB()) MB")
  }

  // MARK: - Throughput

  private func throughput(_ port: UInt16) {
    guard
      let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      print("  requests per second: wrk is not installed (Debian: apt-get install wrk)")
      return
    }
    print("  requests per second (wrk, 5 s each, keep-alive):")
    for target in ["/", "/api/listings?search=big"] {
      var figures: [String] = []
      for connections in [1, 16, 256] {
        let text = Self.output(
          of: wrk,
          [
            "-t", "\(min(connections, 2))", "-c", "\(connections)", "-d", "5s",
            "http://127.0.0.1:\(port)\(target)",
          ])
        let rate = Self.capture(#"Requests/sec:\s+([0-9.]+)"#, text) ?? "?"
        let non2xx = Self.capture(#"Non-2xx or 3xx responses:\s+([0-9]+)"#, text)
        let errors = Self.capture(#"(Socket errors:[^\n]*)"#, text)
        var figure = "\(connections): \(rate.split(separator: ".").first ?? "?")"
        if let non2xx { figure += " (\(non2xx) not 2xx)" }
        if let errors { figure += " (\(errors))" }
        figures.append(figure)
      }
      print("    \(target): " + figures.joined(separator: "; "))
    }
  }

  /// What a program prints (posix_spawn and waitpid: Foundation's Process was seen to spin
  /// forever in waitUntilExit after wrk had ended).
  private static func output(of program: String, _ arguments: [String]) -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "wrk-\(getpid())-\(UUID().uuidString).txt"
    ).path
    defer { unlink(file) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 else { return "" }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
  }

  private static func capture(_ pattern: String, _ text: String) -> String? {
    guard let expression = try? NSRegularExpression(pattern: pattern),
      let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
      let range = Range(match.range(at: 1), in: text)
    else { return nil }
    return String(text[range])
  }

  // MARK: - Memory

  private func memory(_ port: UInt16) {
    let total = 100_000
    let connections = 16
    let targets = [
      "/", "/healthz", "/listing/craigslist/7000000042", "/api/searches", "/assets/style.css",
    ]
    let tally = MemoryTally()
    let start = Date()
    let group = DispatchGroup()
    for connection in 0..<connections {
      group.enter()
      Thread {
        defer { group.leave() }
        var client = LoopbackClient(port: port)
        for index in 0..<(total / connections) {
          if client == nil { client = LoopbackClient(port: port) }
          let status = client?.get(targets[(index + connection) % targets.count]) ?? 0
          if status == 0 {
            client?.close()
            client = nil
          }
          tally.add(ok: status == 200)
        }
        client?.close()
      }.start()
    }
    group.wait()
    let seconds = Date().timeIntervalSince(start)
    let (failures, samples) = tally.read()
    print(
      "  \(total) requests from \(connections) keep-alive connections: \(Bench.format(seconds)) s "
        + "(\(Int(Double(total) / seconds)) per second), \(failures) not 200")
    print(
      "    resident memory every 10,000 requests (MB): "
        + samples.map(String.init).joined(separator: " "))
  }

  // MARK: - Token guesses

  private func guesses(_ port: UInt16) {
    guard var client = LoopbackClient(port: port) else { return }
    var statuses: [Int: Int] = [:]
    let start = Date()
    var index = 0
    while Date().timeIntervalSince(start) < 3 {
      let status = client.get("/api/searches?token=wrong-guess-\(index)")
      statuses[status, default: 0] += 1
      if status == 0, let again = LoopbackClient(port: port) { client = again }
      index += 1
    }
    client.close()
    let seconds = Date().timeIntervalSince(start)
    let wrong = statuses[401, default: 0]
    print(
      "  wrong tokens from one address for 3 s: \(index) asked (\(Int(Double(index) / seconds)) "
        + "a second); \(wrong) refused with 401, \(statuses[429, default: 0]) with 429 (past 5 "
        + "a minute), \(index - wrong - statuses[429, default: 0]) other")
  }
}

/// Requests answered and resident memory every 10,000, from the memory load's threads.
private final class MemoryTally: Sendable {
  private let tally = Mutex((done: 0, failures: 0, samples: [ServeBenchmark.residentMB()]))

  func add(ok: Bool) {
    tally.withLock { tally in
      tally.done += 1
      if !ok { tally.failures += 1 }
      if tally.done % 10_000 == 0 { tally.samples.append(ServeBenchmark.residentMB()) }
    }
  }

  func read() -> (Int, [Int]) { tally.withLock { ($0.failures, $0.samples) } }
}

/// A thousand connections that read a byte every 5 s, a thousand that send one: each reopened
/// when the server closes it.
private final class SlowCrowd: Sendable {
  struct Tally {
    var readersClosed = 0
    var sendersClosed = 0
    var refused = 0
  }

  /// The sockets open, whether the crowd stopped, and what it found.
  private struct State {
    var readers: [Int32] = []
    var senders: [(socket: Int32, sent: Int)] = []
    var stopped = false
    var tally = Tally()
  }

  private let port: UInt16
  private let count: Int
  private let state = Mutex(State())
  private static let header = Array(
    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: \(String(repeating: "s", count: 200))\r\n\r\n"
      .utf8)
  private static let pipelined = Array(
    "GET /listings?search=big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8
  )

  init(port: UInt16, count: Int) {
    self.port = port
    self.count = count
  }

  func connectAll() {
    var refused = 0
    var readers: [Int32] = []
    var senders: [(socket: Int32, sent: Int)] = []
    for _ in 0..<count {
      readers.append(openReader(refused: &refused))
      senders.append((openSender(refused: &refused), 1))
    }
    state.withLock { state in
      state.readers += readers
      state.senders += senders
      state.tally.refused += refused
    }
  }

  /// Every second a fifth of them: each is touched every 5 s.
  func tickUntilStopped() {
    var tick = 0
    while !state.withLock({ $0.stopped }) {
      Thread.sleep(forTimeInterval: 1)
      state.withLock { state in
        for index in 0..<count where index % 5 == tick % 5 {
          var byte: UInt8 = 0
          let got = recv(state.readers[index], &byte, 1, Int32(MSG_DONTWAIT))
          if got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            close(state.readers[index])
            state.tally.readersClosed += 1
            state.readers[index] = openReader(refused: &state.tally.refused)
          }
          var (socket, sent) = state.senders[index]
          var answer = [UInt8](repeating: 0, count: 512)
          let back = recv(socket, &answer, answer.count, Int32(MSG_DONTWAIT))
          let ok =
            back < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            && Self.header.withUnsafeBytes { bytes in
              guard let base = bytes.baseAddress else { return -1 }
              return send(socket, base + (sent % Self.header.count), 1, Int32(MSG_NOSIGNAL))
            } == 1
          if ok {
            sent += 1
          } else {
            close(socket)
            state.tally.sendersClosed += 1
            socket = openSender(refused: &state.tally.refused)
            sent = 1
          }
          state.senders[index] = (socket, sent)
        }
      }
      tick += 1
    }
  }

  func stop() -> Tally {
    state.withLock { state in
      state.stopped = true
      for socket in state.readers { close(socket) }
      for (socket, _) in state.senders { close(socket) }
      return state.tally
    }
  }

  /// A reader's connection; `refused` counts one the server did not take.
  private func openReader(refused: inout Int) -> Int32 {
    let socket = connectSmall(refused: &refused)
    Self.pipelined.withUnsafeBytes {
      _ = send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    return socket
  }

  /// A sender's connection; `refused` counts one the server did not take.
  private func openSender(refused: inout Int) -> Int32 {
    let socket = connectSmall(refused: &refused)
    Self.header.withUnsafeBytes { _ = send(socket, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
    return socket
  }

  /// A loopback connection with a small receive buffer: the answer waits in the server.
  private func connectSmall(refused: inout Int) -> Int32 {
    let number = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var size: Int32 = 4096
    setsockopt(number, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    if !LoopbackClient.connect(number, port: port) { refused += 1 }
    return number
  }
}
