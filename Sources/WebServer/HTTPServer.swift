import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the server could not start.
public struct ServerProblem: Error, CustomStringConvertible, Sendable {
  /// What went wrong, naming the address.
  public var message: String
  public var description: String { message }
}

/// A small HTTP/1.1 server: one thread per connection (at most ``Limits/connections`` at once,
/// the next ones answered 503), keep-alive and pipelining, bounded everywhere (header bytes,
/// body bytes, time to send a request, idle time), no request bodies but `Content-Length` ones.
/// Enough for a local web interface and its API; nothing in it is specific to clarissa.
///
/// Why not Hummingbird (the Swift server convention): it adds 24 packages and 176 s to a clean
/// debug build here (and as much again to each release build), for a server that serves one
/// person's browser and a monitoring scraper. docs/serve.md has the measurements.
public final class HTTPServer: @unchecked Sendable {
  /// The bounds every connection is held to.
  public struct Limits: Sendable {
    /// Connections served at once; more are answered 503 and closed.
    public var connections = 64
    /// The request line and headers together.
    public var headerBytes = 16 * 1024
    /// A request body.
    public var bodyBytes = 256 * 1024
    /// Seconds to send a whole request once its first byte has come.
    public var requestSeconds = 10.0
    /// Seconds a kept-alive connection may sit idle.
    public var idleSeconds = 15.0

    /// The defaults.
    public init() {}
  }

  /// The address it listens on, as bound (the port is the real one when 0 was asked).
  public let host: String
  /// The port it listens on.
  public let port: UInt16
  /// Whether the address is a loopback one (127.0.0.0/8, ::1).
  public let isLoopback: Bool

  private let listener: Int32
  private let limits: Limits
  private let handler: @Sendable (WebRequest) -> WebResponse
  private let lock = NSLock()
  private var active = 0
  private var stopped = false

  /// Binds and listens on `address` (`127.0.0.1:8421`, `[::1]:8421`, `0.0.0.0:8421`,
  /// `localhost:0`); ``start()`` begins serving.
  public init(
    address: String, limits: Limits = Limits(),
    handler: @escaping @Sendable (WebRequest) -> WebResponse
  ) throws {
    self.limits = limits
    self.handler = handler
    let (name, service) = try Self.split(address)
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_PASSIVE
    var found: UnsafeMutablePointer<addrinfo>?
    let resolved = getaddrinfo(name, service, &hints, &found)
    guard resolved == 0, let info = found else {
      throw ServerProblem(
        message: "cannot listen on '\(address)': \(String(cString: gai_strerror(resolved)))")
    }
    defer { freeaddrinfo(found) }
    let socketNumber = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
    guard socketNumber >= 0 else {
      throw ServerProblem(message: "cannot listen on '\(address)': \(Self.lastError())")
    }
    var yes: Int32 = 1
    setsockopt(socketNumber, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    guard bind(socketNumber, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0,
      listen(socketNumber, 128) == 0
    else {
      let reason = Self.lastError()
      close(socketNumber)
      throw ServerProblem(message: "cannot listen on '\(address)': \(reason)")
    }
    listener = socketNumber
    (host, port, isLoopback) = Self.boundAddress(socketNumber)
  }

  deinit { stop() }

  /// `host:port` as a browser would write it (`[::1]:8421` for IPv6).
  public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Serves on a thread of its own until ``stop()``.
  public func start() {
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "clarissa http accept"
    thread.start()
  }

  /// Stops accepting; connections being served finish their request.
  public func stop() {
    let first: Bool = lock.withLock {
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  /// Connections being served now.
  public var activeConnections: Int { lock.withLock { active } }

  private func acceptLoop() {
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        return
      }
      let admitted: Bool = lock.withLock {
        guard active < limits.connections else { return false }
        active += 1
        return true
      }
      guard admitted else {
        Self.send(
          connection, Self.head(WebResponse.text("too many connections\n", status: 503), 22, false)
            + Array("too many connections\n".utf8))
        close(connection)
        continue
      }
      let thread = Thread { [self] in
        serve(connection)
        close(connection)
        lock.withLock { active -= 1 }
      }
      thread.stackSize = 512 * 1024
      thread.start()
    }
  }

  // MARK: - One connection

  private func serve(_ connection: Int32) {
    var noDelay: Int32 = 1
    setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    Self.setTimeout(connection, SO_SNDTIMEO, limits.requestSeconds)
    var buffer: [UInt8] = []
    while true {
      let outcome = readRequest(connection, &buffer)
      switch outcome {
      case .closed:
        return
      case .refused(let status, let message):
        var response = WebResponse.text(message + "\n", status: status)
        response.headers.append(("Connection", "close"))
        Self.send(connection, Self.head(response, response.body.count, false) + response.body)
        return
      case .request(let request, let keepAlive):
        let isHead = request.method == "HEAD"
        var asked = request
        if isHead { asked.method = "GET" }
        let response = handler(asked)
        let bytes =
          Self.head(response, response.body.count, keepAlive) + (isHead ? [] : response.body)
        guard Self.send(connection, bytes), keepAlive else { return }
      }
    }
  }

  private enum ReadOutcome {
    case request(WebRequest, keepAlive: Bool)
    case refused(Int, String)
    case closed
  }

  /// Reads one request from `buffer` and the connection (bytes after it stay in `buffer`).
  private func readRequest(_ connection: Int32, _ buffer: inout [UInt8]) -> ReadOutcome {
    // Idle until the first byte, then the whole request within `requestSeconds`.
    Self.setTimeout(connection, SO_RCVTIMEO, buffer.isEmpty ? limits.idleSeconds : limits.requestSeconds)
    var deadline: Date? = buffer.isEmpty ? nil : Date().addingTimeInterval(limits.requestSeconds)
    var end: Int?
    var scanned = 0
    while true {
      // Only the bytes that came since the last look (and the three before them) are searched:
      // a request sent a byte at a time costs its length, not its length squared.
      end = Self.headerEnd(buffer, from: max(0, scanned - 3))
      scanned = buffer.count
      if end != nil { break }
      if buffer.count > limits.headerBytes { return .refused(431, "request header too large") }
      if let deadline, Date() > deadline { return .refused(408, "request too slow") }
      guard let more = receive(connection) else {
        return buffer.isEmpty ? .closed : .refused(408, "request incomplete")
      }
      if deadline == nil {
        deadline = Date().addingTimeInterval(limits.requestSeconds)
        Self.setTimeout(connection, SO_RCVTIMEO, limits.requestSeconds)
      }
      buffer += more
    }
    guard let end, end <= limits.headerBytes else {
      return .refused(431, "request header too large")
    }
    let head = String(decoding: buffer[..<end], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."),
      requestLine[1].hasPrefix("/"),
      requestLine[0].allSatisfy({ $0.isLetter && $0.isUppercase })
    else { return .refused(400, "malformed request line") }
    var headers: [(name: String, value: String)] = []
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("\t")
      else { return .refused(400, "malformed header line") }
      let name = line[..<colon]
      guard !name.isEmpty, !name.contains(" ") else { return .refused(400, "malformed header name") }
      headers.append(
        (name.lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
    }
    if headers.contains(where: { $0.name == "transfer-encoding" }) {
      return .refused(501, "chunked request bodies are not accepted; send Content-Length")
    }
    let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
    guard lengths.count <= 1,
      lengths.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } })
    else { return .refused(400, "malformed Content-Length") }
    let length = lengths.first.map { Int($0) ?? Int.max } ?? 0
    guard length <= limits.bodyBytes else { return .refused(413, "request body too large") }
    let start = end + 4
    while buffer.count < start + length {
      if let deadline, Date() > deadline { return .refused(408, "request too slow") }
      guard let more = receive(connection) else { return .refused(408, "request incomplete") }
      buffer += more
    }
    let body = Array(buffer[start..<(start + length)])
    buffer.removeFirst(start + length)
    let version = requestLine[2]
    let connectionHeader = headers.first { $0.name == "connection" }?.value.lowercased() ?? ""
    let keepAlive =
      version == "HTTP/1.1" ? !connectionHeader.contains("close") : connectionHeader.contains("keep-alive")
    return .request(
      WebRequest(
        method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
        body: body), keepAlive: keepAlive)
  }

  private func receive(_ connection: Int32) -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = recv(connection, &chunk, chunk.count, 0)
      if count > 0 { return Array(chunk[..<count]) }
      if count < 0, errno == EINTR { continue }
      return nil
    }
  }

  /// Where the header ends (the index of the blank line's `\r\n\r\n`), searched from `start`.
  static func headerEnd(_ buffer: [UInt8], from start: Int = 0) -> Int? {
    guard buffer.count >= start + 4 else { return nil }
    for index in start...(buffer.count - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
      && buffer[index + 3] == 10
    {
      return index
    }
    return nil
  }

  private static func head(_ response: WebResponse, _ length: Int, _ keepAlive: Bool) -> [UInt8] {
    var text = "HTTP/1.1 \(response.status) \(WebResponse.reason(response.status))\r\n"
    for field in response.headers where field.name.lowercased() != "connection" {
      // A value never carries a line break into the header block.
      let value = field.value.replacingOccurrences(of: "\r", with: "")
        .replacingOccurrences(of: "\n", with: "")
      text += "\(field.name): \(value)\r\n"
    }
    text += "Content-Length: \(length)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
    return Array(text.utf8)
  }

  @discardableResult
  private static func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return false }
      sent += count
    }
    return true
  }

  private static func setTimeout(_ connection: Int32, _ option: Int32, _ seconds: Double) {
    var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
    setsockopt(connection, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
  }

  // MARK: - Addresses

  /// `host:port` or `[v6]:port` split; the host must be given.
  static func split(_ address: String) throws -> (String, String) {
    let problem = ServerProblem(
      message: "'\(address)' is not an address to listen on: write HOST:PORT, such as "
        + "127.0.0.1:8421, [::1]:8421 or 0.0.0.0:8421")
    if address.hasPrefix("[") {
      guard let close = address.firstIndex(of: "]"),
        address[address.index(after: close)...].hasPrefix(":")
      else { throw problem }
      let host = String(address[address.index(after: address.startIndex)..<close])
      let port = String(address[address.index(close, offsetBy: 2)...])
      guard !host.isEmpty, UInt16(port) != nil else { throw problem }
      return (host, port)
    }
    guard let colon = address.lastIndex(of: ":") else { throw problem }
    let host = String(address[..<colon])
    let port = String(address[address.index(after: colon)...])
    guard !host.isEmpty, !host.contains(":"), UInt16(port) != nil else { throw problem }
    return (host, port)
  }

  private static func boundAddress(_ socket: Int32) -> (String, UInt16, Bool) {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    if Int32(storage.ss_family) == AF_INET6 {
      var address = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
      }
      var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
      inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
      let host = Self.text(text)
      return (host, UInt16(bigEndian: address.sin6_port), host == "::1")
    }
    var address = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
    }
    var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
    let host = Self.text(text)
    return (host, UInt16(bigEndian: address.sin_port), host.hasPrefix("127."))
  }

  private static func text(_ characters: [CChar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}
