import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

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

/// A small HTTP/1.1 server on SwiftNIO (NIOHTTP1's request decoder, llhttp): a few event loops
/// hold every connection (at most ``Limits/connections`` at once, the next ones answered 503),
/// and the handler, which is synchronous and may read a database, runs on a bounded pool of
/// threads, never on an event loop. Keep-alive and pipelining (answers in order), HEAD, bounded
/// everywhere: header bytes, body bytes, time to send a request, time to read an answer, idle
/// time. Request bodies are `Content-Length` ones only (chunked ones are answered 501); a
/// request that could be read two ways (two `Content-Length`s, `Content-Length` with
/// `Transfer-Encoding`, a space or tab before a header's colon) is answered 400 and the
/// connection closed. Nothing in it is specific to clarissa.
///
/// NIOHTTP1 directly rather than Hummingbird 2: Hummingbird resolves 24 packages to swift-nio's
/// 4 and takes 2.5 times the CPU to build clean (debug and release alike), for a server that
/// serves one person's browser and a monitoring scraper. docs/serve.md has the measurements.
public final class HTTPServer: @unchecked Sendable {
  /// The bounds every connection is held to.
  public struct Limits: Sendable {
    /// Connections served at once; more are answered 503 and closed.
    public var connections = 4096
    /// The request line and headers together.
    public var headerBytes = 16 * 1024
    /// A request body.
    public var bodyBytes = 256 * 1024
    /// Seconds to send a whole request once its first byte has come.
    public var requestSeconds = 10.0
    /// Seconds a kept-alive connection may sit idle.
    public var idleSeconds = 15.0
    /// Seconds a client has to read one whole answer; a slower reader is closed.
    public var responseSeconds = 30.0
    /// Paths answered on a thread of their own, never queued behind other requests' handlers
    /// (a health check stays answered while a thousand pages are being made).
    public var urgentPaths: Set<String> = ["/healthz"]

    /// The defaults.
    public init() {}
  }

  /// The address it listens on, as bound (the port is the real one when 0 was asked).
  public let host: String
  /// The port it listens on.
  public let port: UInt16
  /// Whether the address is a loopback one (127.0.0.0/8, ::1).
  public let isLoopback: Bool

  private let listener: Channel
  private let shared: Shared

  /// The event loops every server of the process shares: one a core.
  static let loops = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
  /// The threads handlers run on: bounded, shared by every server of the process.
  static let handlerThreads: NIOThreadPool = {
    let pool = NIOThreadPool(numberOfThreads: max(4, 2 * System.coreCount))
    pool.start()
    return pool
  }()
  /// The thread ``Limits/urgentPaths`` are answered on.
  static let urgentThread: NIOThreadPool = {
    let pool = NIOThreadPool(numberOfThreads: 1)
    pool.start()
    return pool
  }()

  /// Binds and listens on `address` (`127.0.0.1:8421`, `[::1]:8421`, `0.0.0.0:8421`,
  /// `localhost:0`); ``start()`` begins serving.
  public init(
    address: String, limits: Limits = Limits(),
    handler: @escaping @Sendable (WebRequest) -> WebResponse
  ) throws {
    let (name, service) = try Self.split(address)
    Self.raiseDescriptorLimit(to: limits.connections + 256)
    let shared = Shared(limits: limits, handler: handler)
    self.shared = shared
    let bootstrap = ServerBootstrap(group: Self.loops)
      // A burst of connections (a thousand clients closed for slowness coming back at once)
      // waits in the kernel's queue rather than being dropped (a dropped SYN costs a client 1 s),
      // and is accepted 64 at a time.
      .serverChannelOption(.backlog, value: 4096)
      .serverChannelOption(.maxMessagesPerRead, value: 64)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      // Nothing is accepted before start(): the handler may not be ready.
      .serverChannelOption(.autoRead, value: false)
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          // accept() failing (no file descriptors left) pauses accepting for a second, then
          // accepting goes on; the logger says so once a burst.
          try channel.pipeline.syncOperations.addHandlers(
            AcceptBackoffHandler(shouldForwardIOErrorCaught: true), AcceptProblemLogger())
        }
      }
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in shared.admit(channel) }
    do {
      listener = try bootstrap.bind(host: name, port: Int(service) ?? 0).wait()
    } catch {
      throw ServerProblem(message: "cannot listen on '\(address)': \(Self.reason(error))")
    }
    let bound = listener.localAddress
    let text = bound?.ipAddress ?? name
    host = text
    port = UInt16(clamping: bound?.port ?? 0)
    isLoopback = text == "::1" || text.hasPrefix("127.")
  }

  deinit { stop() }

  /// `host:port` as a browser would write it (`[::1]:8421` for IPv6).
  public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Begins accepting connections (on the event loops) until ``stop()``.
  public func start() {
    listener.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
  }

  /// Stops accepting; connections being served finish their request, idle ones are closed.
  public func stop() {
    guard let open = shared.stop() else { return }
    listener.close(promise: nil)
    for channel in open {
      channel.pipeline.fireUserInboundEventTriggered(ServerStopping())
    }
  }

  /// Connections being served now.
  public var activeConnections: Int { shared.active }

  // MARK: - Helpers

  /// Lets the process hold `wanted` descriptors when its hard limit allows it (the soft
  /// limit is often 1,024).
  private static func raiseDescriptorLimit(to wanted: Int) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted)
    else { return }
    limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }

  private static func reason(_ error: Error) -> String {
    if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
    if case SocketAddressError.unknown = error { return "no such host" }
    return "\(error)"
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
}

/// Told to each connection when the server stops: an idle one closes.
struct ServerStopping {}

/// What the server's connections share: the count, the handler, whether it stopped.
final class Shared: Sendable {
  let limits: HTTPServer.Limits
  let handler: @Sendable (WebRequest) -> WebResponse
  private struct State {
    var active = 0
    var stopped = false
    var open: [ObjectIdentifier: Channel] = [:]
  }
  private let state = NIOLockedValueBox(State())

  init(limits: HTTPServer.Limits, handler: @escaping @Sendable (WebRequest) -> WebResponse) {
    self.limits = limits
    self.handler = handler
  }

  var active: Int { state.withLockedValue { $0.active } }
  var stopped: Bool { state.withLockedValue { $0.stopped } }

  /// The connections open now, the first time; nil after.
  func stop() -> [Channel]? {
    state.withLockedValue { state in
      guard !state.stopped else { return nil }
      state.stopped = true
      return Array(state.open.values)
    }
  }

  /// Sets up an accepted connection: served, or answered 503 when there are too many.
  func admit(_ channel: Channel) -> EventLoopFuture<Void> {
    let key = ObjectIdentifier(channel)
    let admitted = state.withLockedValue { state in
      guard state.active < limits.connections else { return false }
      state.active += 1
      state.open[key] = channel
      return true
    }
    guard admitted else {
      return channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.addHandler(TooMany())
      }
    }
    channel.closeFuture.whenComplete { [self] _ in
      state.withLockedValue { state in
        state.active -= 1
        state.open[key] = nil
      }
    }
    return channel.eventLoop.makeCompletedFuture {
      var decoderLimits = NIOHTTPDecoderLimitConfiguration()
      decoderLimits.maxHeaderListSize = limits.headerBytes
      decoderLimits.maxHeaderFieldSize = limits.headerBytes
      let connection = Connection(shared: self)
      try channel.pipeline.syncOperations.addHandlers(
        ByteWatcher(connection),
        ByteToMessageHandler(
          HTTPRequestDecoder(
            leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop,
            limitConfiguration: decoderLimits)),
        connection)
    }
  }
}

/// Answers 503 to a connection over the limit, and closes it.
private final class TooMany: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer
  private var done = false

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { refuse(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    refuse(context)
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

  private func refuse(_ context: ChannelHandlerContext) {
    guard !done else { return }
    done = true
    let response = WebResponse.text("too many connections\n", status: 503)
    let buffer = Connection.encode(
      response, keepAlive: false, head: false, context.channel.allocator)
    context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in
      context.close(promise: nil)
    }
  }
}

/// Says once a burst (at most every 10 s) that accept() failed; the backoff handler before it
/// pauses accepting for a second each time.
private final class AcceptProblemLogger: ChannelInboundHandler {
  typealias InboundIn = Channel
  typealias InboundOut = Channel
  private var lastSaid: NIODeadline?
  private var unsaid = 0

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    let now = NIODeadline.now()
    if let lastSaid, now - lastSaid < .seconds(10) {
      unsaid += 1
      return
    }
    let more = unsaid > 0 ? " (and \(unsaid) more times since the last message)" : ""
    unsaid = 0
    lastSaid = now
    FileHandle.standardError.write(
      Data(
        "clarissa: cannot accept a connection: \(error)\(more); accepting again in 1 s\n".utf8))
  }
}

/// Tells the connection of the bytes that come, before the decoder sees them: when a request
/// begins (its time starts) and how long its header has grown.
private final class ByteWatcher: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  private let connection: Connection

  init(_ connection: Connection) { self.connection = connection }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let count = unwrapInboundIn(data).readableBytes
    guard connection.bytesArrived(count) else { return }
    context.fireChannelRead(data)
    connection.bytesDecoded()
  }
}

/// One connection: requests in, handled in order on the handler threads, answers out, every
/// stage bounded in time.
final class Connection: ChannelDuplexHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private enum Item {
    case request(WebRequest, keepAlive: Bool, head: Bool)
    case refusal(WebResponse)
  }

  private let shared: Shared
  private var limits: HTTPServer.Limits { shared.limits }
  private var context: ChannelHandlerContext?
  /// A request is being received (its first byte came, its end has not).
  private var receiving = false
  /// Its head was decoded.
  private var headSeen = false
  /// Bytes received while its head was not yet whole.
  private var headBytes = 0
  private var current: (head: HTTPRequestHead, body: [UInt8])?
  /// Requests read and not yet answered (pipelining), then a refusal that ends it.
  private var queue: [Item] = []
  /// An answer is being made or sent.
  private var busy = false
  /// No further request is read: a refusal or `Connection: close` came.
  private var closing = false
  private var readPending = false
  private var requestTimer: Scheduled<Void>?
  private var idleTimer: Scheduled<Void>?
  private var responseTimer: Scheduled<Void>?
  /// Requests held before reading stops until answers are sent.
  private static let pipelineDepth = 8

  init(shared: Shared) { self.shared = shared }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
    if context.channel.isActive { becameIdle() }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    cancelTimers()
    self.context = nil
  }

  func channelActive(context: ChannelHandlerContext) {
    becameIdle()
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    cancelTimers()
    context.fireChannelInactive()
  }

  private func cancelTimers() {
    for timer in [requestTimer, idleTimer, responseTimer] { timer?.cancel() }
    requestTimer = nil
    idleTimer = nil
    responseTimer = nil
  }

  // MARK: - Bytes in

  /// Before the decoder: false when the bytes are to be dropped (the connection is ending).
  func bytesArrived(_ count: Int) -> Bool {
    guard !closing else { return false }
    idleTimer?.cancel()
    idleTimer = nil
    if !receiving { beginRequest() }
    if !headSeen { headBytes += count }
    return true
  }

  /// After the decoder: a head that never ends is refused at the limit.
  func bytesDecoded() {
    if receiving, !headSeen, headBytes > limits.headerBytes + 4 {
      refuse(431, "request header too large")
    }
  }

  private func beginRequest() {
    receiving = true
    headSeen = false
    headBytes = 0
    requestTimer?.cancel()
    guard let context else { return }
    requestTimer = context.eventLoop.assumeIsolated().scheduleTask(
      in: Self.amount(limits.requestSeconds)
    ) { [self] in
      requestTimer = nil
      if receiving { refuse(408, "request too slow") }
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !closing else { return }
    switch unwrapInboundIn(data) {
    case .head(let head):
      if !receiving { beginRequest() }
      headSeen = true
      if let (status, message) = problem(head) {
        refuse(status, message)
        return
      }
      current = (head, [])
    case .body(let chunk):
      guard var request = current else { return }
      current = nil  // the body stays uniquely held: appended in place, not copied per chunk
      guard request.body.count + chunk.readableBytes <= limits.bodyBytes else {
        refuse(413, "request body too large")
        return
      }
      request.body += chunk.readableBytesView
      current = request
    case .end:
      receiving = false
      requestTimer?.cancel()
      requestTimer = nil
      guard let (head, body) = current else { return }
      current = nil
      let isHead = head.method == .HEAD
      let request = WebRequest(
        method: head.method.rawValue, target: head.uri,
        headers: head.headers.map { ($0.name.lowercased(), $0.value) }, body: body,
        client: context.remoteAddress?.ipAddress)
      let keepAlive = head.isKeepAlive
      if !keepAlive { closing = true }
      queue.append(.request(request, keepAlive: keepAlive, head: isHead))
      next()
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    guard let error = error as? HTTPParserError else {
      context.close(promise: nil)
      return
    }
    switch error {
    case .headerOverflow: refuse(431, "request header too large")
    case .invalidVersion: refuse(505, "HTTP version not supported: send HTTP/1.1")
    case .invalidHeaderToken: refuse(400, "malformed header name")
    case .unexpectedContentLength:
      refuse(400, "a request may carry one Content-Length, and not with Transfer-Encoding")
    default:
      // Among them Content-Length with Transfer-Encoding, which llhttp refuses first.
      refuse(400, "malformed request: refused rather than read one of two ways")
    }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ServerStopping, !busy, queue.isEmpty, !receiving {
      context.close(promise: nil)
    }
    context.fireUserInboundEventTriggered(event)
  }

  /// What is wrong with a request head, as a status and a message; nil: nothing.
  private func problem(_ head: HTTPRequestHead) -> (Int, String)? {
    guard head.version == .http1_1 || head.version == .http1_0 else {
      return (505, "HTTP version not supported: send HTTP/1.1")
    }
    guard head.uri.hasPrefix("/") else { return (400, "malformed request line") }
    for (name, value) in head.headers {
      guard !name.isEmpty, name.utf8.allSatisfy(Self.isToken) else {
        return (400, "malformed header name")
      }
      guard !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
        return (400, "malformed header value")
      }
    }
    let lengths = head.headers["content-length"]
    let encodings = head.headers["transfer-encoding"]
    if lengths.count > 1 { return (400, "a request may carry one Content-Length") }
    if !lengths.isEmpty, !encodings.isEmpty {
      return (400, "a request may not carry both Content-Length and Transfer-Encoding")
    }
    if !encodings.isEmpty {
      return (501, "chunked request bodies are not accepted; send Content-Length")
    }
    if let length = lengths.first {
      guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
        return (400, "malformed Content-Length")
      }
      guard (Int(length) ?? .max) <= limits.bodyBytes else {
        return (413, "request body too large")
      }
    }
    return nil
  }

  /// RFC 9110's token characters, what a header name is made of.
  private static func isToken(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// Answers `status` after the answers already due, and closes: nothing more is read.
  private func refuse(_ status: Int, _ message: String) {
    guard !closing else { return }
    closing = true
    receiving = false
    current = nil
    requestTimer?.cancel()
    requestTimer = nil
    queue.append(.refusal(.text(message + "\n", status: status)))
    next()
  }

  // MARK: - Answers out

  /// Starts on the next request when none is being answered.
  private func next() {
    guard let context, !busy else { return }
    guard !queue.isEmpty else {
      if closing { context.close(promise: nil) } else if !receiving { becameIdle() }
      return
    }
    busy = true
    let item = queue.removeFirst()
    resumeReading()
    switch item {
    case .refusal(let response):
      send(response, keepAlive: false, head: false)
    case .request(var request, let keepAlive, let isHead):
      if isHead { request.method = "GET" }
      let handler = shared.handler
      let asked = request
      let threads =
        limits.urgentPaths.contains(asked.path)
        ? HTTPServer.urgentThread : HTTPServer.handlerThreads
      threads.runIfActive(eventLoop: context.eventLoop) { handler(asked) }
        .assumeIsolated().whenComplete { [self] result in
          switch result {
          case .success(let response):
            send(response, keepAlive: keepAlive && !shared.stopped, head: isHead)
          case .failure:
            send(.text("the server is stopping\n", status: 503), keepAlive: false, head: false)
          }
        }
    }
  }

  private func send(_ response: WebResponse, keepAlive: Bool, head: Bool) {
    guard let context else { return }
    if !keepAlive { closing = true }
    let buffer = Self.encode(response, keepAlive: keepAlive, head: head, context.channel.allocator)
    let loop = context.eventLoop.assumeIsolated()
    responseTimer = loop.scheduleTask(in: Self.amount(limits.responseSeconds)) { [self] in
      // A client that reads too slowly holds the connection no longer.
      responseTimer = nil
      self.context?.close(promise: nil)
    }
    context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete {
      [self] result in
      responseTimer?.cancel()
      responseTimer = nil
      busy = false
      guard case .success = result, keepAlive else {
        self.context?.close(promise: nil)
        return
      }
      next()
    }
  }

  /// Nothing to do: the connection is closed after `idleSeconds` unless a request begins.
  private func becameIdle() {
    guard let context, idleTimer == nil else { return }
    idleTimer = context.eventLoop.assumeIsolated().scheduleTask(
      in: Self.amount(limits.idleSeconds)
    ) { [self] in
      idleTimer = nil
      if !busy, !receiving, queue.isEmpty { self.context?.close(promise: nil) }
    }
  }

  // MARK: - Back pressure: a client sending requests without reading answers is not read

  func read(context: ChannelHandlerContext) {
    if closing || queue.count >= Self.pipelineDepth {
      readPending = true
    } else {
      context.read()
    }
  }

  private func resumeReading() {
    guard readPending, !closing, queue.count < Self.pipelineDepth, let context else { return }
    readPending = false
    context.read()
  }

  // MARK: - Encoding

  /// The status line, the response's fields, `Date`, `Content-Length` and `Connection`, then
  /// the body (none for HEAD).
  static func encode(
    _ response: WebResponse, keepAlive: Bool, head: Bool, _ allocator: ByteBufferAllocator
  ) -> ByteBuffer {
    var text = "HTTP/1.1 \(response.status) \(WebResponse.reason(response.status))\r\n"
    for field in response.headers
    where !["connection", "content-length", "date", "transfer-encoding"].contains(
      field.name.lowercased())
    {
      // A value never carries a line break into the header block.
      let value = field.value.replacingOccurrences(of: "\r", with: "")
        .replacingOccurrences(of: "\n", with: "")
      text += "\(field.name): \(value)\r\n"
    }
    text += "Date: \(httpDate())\r\n"
    text += "Content-Length: \(response.body.count)\r\n"
    text += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
    var buffer = allocator.buffer(capacity: text.utf8.count + (head ? 0 : response.body.count))
    buffer.writeString(text)
    if !head { buffer.writeBytes(response.body) }
    return buffer
  }

  /// Now as an HTTP date: `Tue, 24 Nov 2026 03:40:00 GMT`.
  static func httpDate(_ seconds: time_t = time(nil)) -> String {
    var moment = seconds
    var parts = tm()
    gmtime_r(&moment, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }

  private static func amount(_ seconds: Double) -> TimeAmount {
    .nanoseconds(Int64(seconds * 1e9))
  }
}
