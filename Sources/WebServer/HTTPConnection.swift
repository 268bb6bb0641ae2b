internal import Foundation
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

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
  /// Over the connection limit: only an urgent path is answered, then it is closed.
  private let urgentOnly: Bool
  /// Body bytes of the budget reserved for the request being received.
  private var reserved = 0
  /// Body bytes of the requests read and not yet answered.
  private var queuedBody = 0
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

  init(shared: Shared, urgentOnly: Bool = false) {
    self.shared = shared
    self.urgentOnly = urgentOnly
  }

  /// Seconds to send a request, or to begin one.
  private var requestSeconds: Double {
    urgentOnly ? min(limits.requestSeconds, limits.urgentSeconds) : limits.requestSeconds
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
    if context.channel.isActive { becameIdle() }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    cancelTimers()
    releaseBodies()
    self.context = nil
  }

  func channelActive(context: ChannelHandlerContext) {
    becameIdle()
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    cancelTimers()
    releaseBodies()
    context.fireChannelInactive()
  }

  /// Gives back to the shared budget every body byte this connection holds.
  private func releaseBodies() {
    shared.releaseBody(reserved + queuedBody)
    reserved = 0
    queuedBody = 0
    queue.removeAll()
    current = nil
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
      in: Self.amount(requestSeconds)
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
      if let refusal = screened(head) {
        refuse(refusal)
        return
      }
      let length = head.headers["content-length"].first.flatMap { Int($0) } ?? 0
      guard shared.reserveBody(length) else {
        var full = WebResponse.text(
          "too many request bodies being received; try again in a moment\n", status: 503)
        full.headers.append(("Retry-After", "1"))
        refuse(full)
        return
      }
      reserved = length
      var body: [UInt8] = []
      body.reserveCapacity(length)
      current = (head, body)
      if head.headers["expect"].first != nil, length > 0, head.version == .http1_1, !busy,
        queue.isEmpty
      {
        // The client waits for this before it sends the body (`Expect: 100-continue`); the
        // answers before it are all sent, so it cannot land in one of them. With answers still
        // due it is left out: the client sends the body after a second anyway.
        context.writeAndFlush(
          wrapOutboundOut(
            context.channel.allocator.buffer(string: "HTTP/1.1 100 Continue\r\n\r\n")),
          promise: nil)
      }
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
      queuedBody += reserved
      reserved = 0
      let isHead = head.method == .HEAD
      let request = WebRequest(
        method: head.method.rawValue, target: head.uri,
        headers: head.headers.map { ($0.name.lowercased(), $0.value) }, body: body,
        client: context.remoteAddress?.ipAddress)
      let keepAlive = head.isKeepAlive && !urgentOnly
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
    if head.headers["host"].count > 1 {
      // Which one would a proxy in front have routed by?
      return (400, "a request may carry one Host")
    }
    if let expect = head.headers["expect"].first,
      head.headers["expect"].count > 1 || expect.lowercased() != "100-continue"
    {
      return (417, "the only expectation understood is Expect: 100-continue")
    }
    if urgentOnly, !limits.urgentPaths.contains(WebRequest(method: "GET", target: head.uri).path) {
      return (503, "too many connections")
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

  /// What the server's screen answers a request with a body before the body is read; nil:
  /// it is read.
  private func screened(_ head: HTTPRequestHead) -> WebResponse? {
    guard let screen = shared.screen,
      head.headers["content-length"].contains(where: { $0 != "0" })
    else { return nil }
    return screen(
      WebRequest(
        method: head.method.rawValue, target: head.uri,
        headers: head.headers.map { ($0.name.lowercased(), $0.value) },
        client: context?.remoteAddress?.ipAddress))
  }

  /// Answers `status` after the answers already due, and closes: nothing more is read.
  private func refuse(_ status: Int, _ message: String) {
    refuse(.text(message + "\n", status: status))
  }

  /// Answers `response` after the answers already due, and closes: nothing more is read.
  private func refuse(_ response: WebResponse) {
    guard !closing else { return }
    closing = true
    receiving = false
    current = nil
    shared.releaseBody(reserved)
    reserved = 0
    requestTimer?.cancel()
    requestTimer = nil
    queue.append(.refusal(response))
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
      let held = asked.body.count
      threads.runIfActive(eventLoop: context.eventLoop) { handler(asked) }
        .assumeIsolated().whenComplete { [self] result in
          // The handler is done with the body: its bytes go back to the budgets.
          shared.releaseBody(min(held, queuedBody))
          queuedBody -= min(held, queuedBody)
          resumeReading()
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
      in: Self.amount(
        urgentOnly ? min(limits.idleSeconds, limits.urgentSeconds) : limits.idleSeconds)
    ) { [self] in
      idleTimer = nil
      if !busy, !receiving, queue.isEmpty { self.context?.close(promise: nil) }
    }
  }

  // MARK: - Back pressure: a client sending requests without reading answers is not read

  func read(context: ChannelHandlerContext) {
    if holdsEnough {
      readPending = true
    } else {
      context.read()
    }
  }

  /// Whether no more is read until answers are sent: a refusal came, or the requests read hold
  /// ``pipelineDepth`` requests or ``HTTPServer/Limits/connectionBodyBytes`` of bodies.
  private var holdsEnough: Bool {
    closing || queue.count >= Self.pipelineDepth || queuedBody >= limits.connectionBodyBytes
  }

  private func resumeReading() {
    guard readPending, !holdsEnough, let context else { return }
    readPending = false
    context.read()
  }
}
