import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests: each request gets the reply the test's
/// handler scripts (status, headers, body, a body that trickles, or no answer at all). Every
/// request is logged with its arrival time. Connections close after each reply.
public final class LoopbackServer: Sendable {
  /// A request as the server saw it.
  public struct Request: Sendable {
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var body: [UInt8]
    public var arrived: Date

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// What to answer.
  public struct Reply: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    /// Send the body this many bytes at a time, pausing between pieces.
    public var trickle: (bytes: Int, pause: Double)?
    /// Accept the request and never answer.
    public var hang: Bool
    /// Send only this many bytes of the body, then close the connection.
    public var cutAfter: Int?
    /// Send these bytes instead of an HTTP answer, then close.
    public var raw: [UInt8]?

    public init(
      status: Int = 200, headers: [String: String] = [:], body: [UInt8] = [],
      trickle: (bytes: Int, pause: Double)? = nil, hang: Bool = false, cutAfter: Int? = nil,
      raw: [UInt8]? = nil
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.trickle = trickle
      self.hang = hang
      self.cutAfter = cutAfter
      self.raw = raw
    }

    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:])
      -> Reply
    {
      Reply(status: status, headers: headers, body: Array(text.utf8))
    }
  }

  /// The port it listens on.
  public let port: UInt16
  private let listener: Int32
  private let handler: @Sendable (Request, Int) -> Reply
  /// The requests received, and whether it stopped.
  private let state = Mutex((log: [Request](), stopped: false))

  /// The loopback address it listens on.
  public let address: String

  /// `http://<address>:<port>`.
  public var base: String { "http://\(address):\(port)" }

  /// Starts listening; `handler` gets each request and how many came before it on its path.
  /// `address` is another loopback address (127.0.0.2) for a server that plays a public host.
  public init(
    address host: String = "127.0.0.1", handler: @escaping @Sendable (Request, Int) -> Reply
  ) throws {
    precondition(host.hasPrefix("127."), "tests listen on loopback only")
    self.address = host
    self.handler = handler
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    self.listener = listener
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(host)
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [weak self] in self?.acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  /// Stops accepting connections.
  public func stop() {
    state.withLock { state in
      guard !state.stopped else { return }
      state.stopped = true
      shutdown(listener, Int32(SHUT_RDWR))
      close(listener)
    }
  }

  /// Requests received so far, in arrival order.
  public var requests: [Request] { state.withLock { $0.log } }

  /// A port on 127.0.0.1 where nothing listens (connections are refused).
  public static func closedPort() -> UInt16 {
    guard let server = try? LoopbackServer(handler: { _, _ in Reply() }) else { return 9 }
    let port = server.port
    server.stop()
    return port
  }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 { return }
      let thread = Thread { [weak self] in self?.serve(connection) }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    guard let request = readRequest(connection) else { return }
    let count = state.withLock { state -> Int in
      let before = state.log.filter { $0.path == request.path }.count
      state.log.append(request)
      return before
    }
    let reply = handler(request, count)
    if reply.hang {
      Thread.sleep(forTimeInterval: 30)
      return
    }
    if let raw = reply.raw {
      send(connection, raw)
      return
    }
    var head = "HTTP/1.1 \(reply.status) \(Self.reason(reply.status))\r\n"
    var headers = reply.headers
    headers["Content-Length"] = headers["Content-Length"] ?? String(reply.body.count)
    headers["Connection"] = "close"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "\r\n"
    send(connection, Array(head.utf8))
    if let trickle = reply.trickle {
      var offset = 0
      while offset < reply.body.count {
        let end = min(offset + trickle.bytes, reply.body.count)
        if !send(connection, Array(reply.body[offset..<end])) { return }
        offset = end
        Thread.sleep(forTimeInterval: trickle.pause)
      }
    } else if let cut = reply.cutAfter {
      send(connection, Array(reply.body.prefix(cut)))
    } else {
      send(connection, reply.body)
    }
  }

  @discardableResult
  private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let result = bytes[sent...].withUnsafeBytes {
        Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if result <= 0 { return false }
      sent += result
    }
    return true
  }

  private func readRequest(_ connection: Int32) -> Request? {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !data.containsHeaderEnd {
      let count = recv(connection, &buffer, buffer.count, 0)
      if count <= 0 { return nil }
      data += buffer[0..<count]
      // A TLS handshake (record type 0x16) is answered as a plain HTTP server answers it.
      if data.first == 0x16 {
        send(connection, Array("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n".utf8))
        return nil
      }
      if data.count > 65_536 { return nil }
    }
    let end = data.headerEnd ?? data.count
    let text = String(decoding: data[..<end], as: UTF8.self)
    let lines = text.components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() where line.contains(":") {
      let pair = line.split(separator: ":", maxSplits: 1)
      headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces)
    }
    var body = Array(data[Swift.min(end + 4, data.count)...])
    let expected = Int(headers["content-length"] ?? "") ?? 0
    while body.count < expected {
      let count = recv(connection, &buffer, buffer.count, 0)
      if count <= 0 { break }
      body += buffer[0..<count]
    }
    return Request(
      method: String(parts[0]), path: String(parts[1]), headers: headers, body: body,
      arrived: Date())
  }

  private static func reason(_ status: Int) -> String {
    [
      200: "OK", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 403: "Forbidden",
      404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error",
      503: "Service Unavailable",
    ][status] ?? "Status"
  }
}

extension Array where Element == UInt8 {
  fileprivate var containsHeaderEnd: Bool { headerEnd != nil }

  /// Where the blank line ending the headers starts.
  fileprivate var headerEnd: Int? {
    guard count >= 4 else { return nil }
    for index in 0...(count - 4)
    where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13
      && self[index + 3] == 10
    {
      return index
    }
    return nil
  }
}
