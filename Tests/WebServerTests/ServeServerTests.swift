import FixtureSupport
import Foundation
import Testing
import WebServer

#if canImport(Glibc)
  import Glibc
#endif

/// The HTTP server itself, over raw sockets: requests that could be read two ways, versions,
/// the Date header, time bounds, and many slow clients while `/healthz` is answered.
@Suite struct ServeServerTests {
  static func echo(limits: HTTPServer.Limits = .init()) throws -> HTTPServer {
    let server = try HTTPServer(address: "127.0.0.1:0", limits: limits) { request in
      if request.path == "/big" {
        return WebResponse(body: [UInt8](repeating: 65, count: 32 * 1024 * 1024))
      }
      if request.path == "/page" {
        return WebResponse(body: [UInt8](repeating: 65, count: 256 * 1024))
      }
      return .text("\(request.method) \(request.path) \(request.body.count)\n")
    }
    server.start()
    return server
  }

  /// `Content-Length\t: 3`: a proxy may read it as a length and this server as another header.
  @Test func aSpaceOrTabBeforeAHeadersColonIsRefused() throws {
    let server = try Self.echo()
    defer { server.stop() }
    for name in ["Content-Length\t", "Content-Length ", "X Y"] {
      let answer = try RawHTTP.exchange(
        port: server.port,
        "POST / HTTP/1.1\r\nHost: x\r\n\(name): 3\r\n\r\nabcGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
      )
      #expect(answer.hasPrefix("HTTP/1.1 400"), "\(name.debugDescription): \(answer)")
      #expect(!answer.contains("smuggled"))
      #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer, then closed")
    }
  }

  @Test func twoLengthsOrALengthWithTransferEncodingAreRefusedAndTheConnectionClosed() throws {
    let server = try Self.echo()
    defer { server.stop() }
    let requests = [
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 30\r\n\r\nabc",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3,3\r\n\r\nabc",
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
    ]
    for request in requests {
      let answer = try RawHTTP.exchange(
        port: server.port, request + "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription): \(answer)")
      #expect(answer.contains("Connection: close\r\n"))
      #expect(!answer.contains("smuggled"))
    }
  }

  @Test func versionsOtherThanOneDotZeroAndOneDotOneAreRefused() throws {
    let server = try Self.echo()
    defer { server.stop() }
    for version in ["HTTP/1.9", "HTTP/2.0", "HTTP/0.9", "HTTP/3.1"] {
      let answer = try RawHTTP.exchange(port: server.port, "GET / \(version)\r\nHost: x\r\n\r\n")
      #expect(
        answer.hasPrefix("HTTP/1.1 505") || answer.hasPrefix("HTTP/1.1 400"),
        "\(version): \(answer)")
    }
    let old = try RawHTTP.exchange(port: server.port, "GET /a HTTP/1.0\r\nHost: x\r\n\r\n")
    #expect(old.hasPrefix("HTTP/1.1 200") && old.contains("Connection: close"))
  }

  @Test func everyAnswerCarriesADate() throws {
    let server = try Self.echo()
    defer { server.stop() }
    let pattern =
      #"\r\nDate: (Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT\r\n"#
    for request in [
      "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      "GET / HTTP/1.9\r\nHost: x\r\n\r\n",
    ] {
      let answer = try RawHTTP.exchange(port: server.port, request)
      #expect(answer.range(of: pattern, options: .regularExpression) != nil, "\(answer)")
    }
    let answer = try RawHTTP.exchange(port: server.port, "GET / HTTP/1.0\r\n\r\n")
    let field = try #require(answer.split(separator: "\r\n").first { $0.hasPrefix("Date: ") })
    let date = try #require(DateFormatter.http.date(from: String(field.dropFirst(6))))
    #expect(abs(date.timeIntervalSinceNow) < 5)
  }

  @Test func slowSendersIdlersAndSlowReadersAreClosedInTime() throws {
    var limits = HTTPServer.Limits()
    limits.requestSeconds = 0.5
    limits.idleSeconds = 0.5
    limits.responseSeconds = 1
    let server = try Self.echo(limits: limits)
    defer { server.stop() }
    // A header that never ends.
    var slow = try #require(LoopbackClient(port: server.port, timeout: 5))
    slow.send("GET / HTTP/1.1\r\nHost: x\r\n")
    let start = Date()
    #expect(slow.readToEnd().hasPrefix("HTTP/1.1 408"))
    #expect(Date().timeIntervalSince(start) < 3)
    slow.close()
    // A body that never comes whole.
    var partial = try #require(LoopbackClient(port: server.port, timeout: 5))
    partial.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
    #expect(partial.readToEnd().hasPrefix("HTTP/1.1 408"))
    partial.close()
    // Nothing sent at all.
    var idle = try #require(LoopbackClient(port: server.port, timeout: 5))
    let idleStart = Date()
    #expect(idle.readToEnd() == "")
    #expect(Date().timeIntervalSince(idleStart) < 3)
    idle.close()
    // 32 MiB asked and never read: closed after responseSeconds, the answer cut short.
    var reader = try #require(LoopbackClient(port: server.port, timeout: 10))
    reader.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
    Thread.sleep(forTimeInterval: 2.5)
    let got = reader.readToEnd()
    #expect(got.hasPrefix("HTTP/1.1 200"))
    #expect(got.utf8.count < 32 * 1024 * 1024, "the slow reader was closed")
    reader.close()
  }

  @Test func connectionsOverTheLimitAreAnswered503() throws {
    var limits = HTTPServer.Limits()
    limits.connections = 2
    let server = try Self.echo(limits: limits)
    defer { server.stop() }
    var held: [LoopbackClient] = []
    for _ in 0..<2 {
      var client = try #require(LoopbackClient(port: server.port))
      #expect(client.get("/") == 200)
      held.append(client)
    }
    let third = try RawHTTP.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(third.hasPrefix("HTTP/1.1 503"))
    for client in held { client.close() }
  }

  /// The old server gave each connection a thread, 64 at most: 64 slow clients silenced it.
  @Test func healthIsAnsweredWhileManyClientsAreSlow() throws {
    let server = try Self.echo()
    defer { server.stop() }
    var slow: [LoopbackClient] = []
    defer { for client in slow { client.close() } }
    for index in 0..<200 {
      let client = try #require(LoopbackClient(port: server.port))
      // Half send the start of a header, half ask for a page of 256 KiB, again and again, and
      // never read it.
      client.send(
        index % 2 == 0
          ? "GET / HTTP/1.1\r\nHo"
          : String(repeating: "GET /page HTTP/1.1\r\nHost: x\r\n\r\n", count: 4))
      slow.append(client)
    }
    var worst = 0.0
    for _ in 0..<20 {
      let start = Date()
      var client = try #require(LoopbackClient(port: server.port, timeout: 5))
      #expect(client.get("/healthz") == 200)
      client.close()
      worst = max(worst, Date().timeIntervalSince(start))
    }
    #expect(worst < 2, "the slowest /healthz took \(worst) s")
  }

  /// With two Host headers a proxy in front may route by one and this server read the other.
  @Test func twoHostHeadersAreRefused() throws {
    let server = try Self.echo()
    defer { server.stop() }
    let answer = try RawHTTP.exchange(
      port: server.port,
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
    #expect(answer.contains("one Host"))
    #expect(!answer.contains("smuggled"))
  }

  /// `Expect: 100-continue`: the client waits for `100 Continue` before it sends the body; a
  /// request that will not be read is answered at once, its body never asked for.
  @Test func expectContinueIsAnsweredBeforeTheBody() throws {
    let server = try HTTPServer(
      address: "127.0.0.1:0",
      screen: { $0.path == "/closed" ? .text("no\n", status: 401) : nil }
    ) { .text("\($0.method) \($0.path) \($0.body.count)\n") }
    server.start()
    defer { server.stop() }
    var client = try #require(LoopbackClient(port: server.port, timeout: 5))
    client.send(
      "POST /in HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
    #expect(client.readHead() == "HTTP/1.1 100 Continue", "before the body was sent")
    client.send("hello")
    #expect(client.readHead()?.hasPrefix("HTTP/1.1 200") == true)
    client.close()
    let refusals = [
      ("/closed", "100-continue", "5", "HTTP/1.1 401"),
      ("/in", "100-continue", "999999999", "HTTP/1.1 413"),
      ("/in", "something-else", "5", "HTTP/1.1 417"),
    ]
    for (path, expect, length, status) in refusals {
      var refused = try #require(LoopbackClient(port: server.port, timeout: 5))
      refused.send(
        "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\nExpect: \(expect)\r\n\r\n"
      )
      let answer = refused.readToEnd()
      #expect(answer.hasPrefix(status), "\(path) \(expect): \(answer)")
      #expect(!answer.contains("100 Continue"))
      refused.close()
    }
  }

  /// Past the connection limit, `/healthz` is still answered: the connections over it are read
  /// (a little while) for an urgent path; anything else there is 503.
  @Test func healthIsAnsweredPastTheConnectionLimit() throws {
    var limits = HTTPServer.Limits()
    limits.connections = 8
    let server = try Self.echo(limits: limits)
    defer { server.stop() }
    var slow: [LoopbackClient] = []
    defer { for client in slow { client.close() } }
    for _ in 0..<12 {
      let client = try #require(LoopbackClient(port: server.port))
      client.send("GET / HTTP/1.1\r\nHo")
      slow.append(client)
    }
    Thread.sleep(forTimeInterval: 0.2)
    #expect(server.activeConnections == 8)
    for _ in 0..<5 {
      let health = try RawHTTP.exchange(
        port: server.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(health.hasPrefix("HTTP/1.1 200"), "\(health)")
      #expect(health.contains("Connection: close"))
    }
    let page = try RawHTTP.exchange(port: server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(page.hasPrefix("HTTP/1.1 503"), "\(page)")
  }

  /// Request bodies held (read and not yet answered) are bounded per connection and in all:
  /// past the budget a request is answered 503 before its body is read, and every byte is given
  /// back once the answers are sent.
  @Test func bodiesHeldAreBounded() throws {
    var limits = HTTPServer.Limits()
    limits.bodyBudget = 1024 * 1024
    let gate = DispatchSemaphore(value: 0)
    let server = try HTTPServer(address: "127.0.0.1:0", limits: limits) { request in
      if request.path == "/wait" { gate.wait() }
      return .text("\(request.body.count)\n")
    }
    server.start()
    defer { server.stop() }
    let body = String(repeating: "a", count: 256 * 1024)
    var clients: [LoopbackClient] = []
    defer { for client in clients { client.close() } }
    let post = "POST /wait HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n"
    for _ in 0..<8 {
      let client = try #require(LoopbackClient(port: server.port, timeout: 10))
      client.send(
        String(repeating: post + "\r\n" + body, count: 3) + post + "Connection: close\r\n\r\n"
          + body)
      clients.append(client)
    }
    Thread.sleep(forTimeInterval: 1)
    let held = server.heldBodyBytes
    #expect(held > 0 && held <= limits.bodyBudget, "\(held) bytes held")
    for _ in 0..<40 { gate.signal() }
    var answers = ""
    for index in clients.indices { answers += clients[index].readToEnd() }
    let served = answers.components(separatedBy: "HTTP/1.1 200").count - 1
    let refused = answers.components(separatedBy: "HTTP/1.1 503").count - 1
    #expect(served >= 4 && refused >= 1, "\(served) served, \(refused) refused")
    #expect(answers.contains("262144\n"))
    Thread.sleep(forTimeInterval: 0.3)
    #expect(server.heldBodyBytes == 0)
  }

  /// Handlers run on threads of their own: one that takes its time holds up no other request.
  @Test func aSlowHandlerHoldsUpNoOtherConnection() throws {
    let server = try HTTPServer(address: "127.0.0.1:0") { request in
      if request.path == "/slow" { Thread.sleep(forTimeInterval: 2) }
      return .text("done\n")
    }
    server.start()
    defer { server.stop() }
    var slow: [LoopbackClient] = []
    defer { for client in slow { client.close() } }
    for _ in 0..<2 {
      let client = try #require(LoopbackClient(port: server.port))
      client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
      slow.append(client)
    }
    Thread.sleep(forTimeInterval: 0.2)
    let start = Date()
    var fast = try #require(LoopbackClient(port: server.port))
    #expect(fast.get("/fast") == 200)
    fast.close()
    #expect(Date().timeIntervalSince(start) < 1)
  }

  @Test func keepAlivePipeliningAndHeadAsBefore() throws {
    let server = try Self.echo()
    defer { server.stop() }
    var client = try #require(LoopbackClient(port: server.port))
    for index in 0..<5 { #expect(client.get("/k\(index)") == 200) }
    client.close()
    let answers = try RawHTTP.exchange(
      port: server.port,
      (0..<20).map { "GET /p\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
        + "HEAD /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let bodies = answers.components(separatedBy: "\r\n\r\n").dropFirst().map {
      $0.split(separator: "\n").first.map(String.init) ?? ""
    }
    #expect(Array(bodies.prefix(20)) == (0..<20).map { "GET /p\($0) 0" })
    #expect(answers.hasSuffix("Connection: close\r\n\r\n"), "HEAD: no body")
  }
}

extension DateFormatter {
  static let http: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
  }()
}
