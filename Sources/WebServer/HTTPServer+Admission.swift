internal import Foundation
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Told to each connection when the server stops: an idle one closes.
struct ServerStopping {}

/// What the server's connections share: the count, the handler, whether it stopped.
final class Shared: Sendable {
  let limits: HTTPServer.Limits
  let handler: @Sendable (WebRequest) -> WebResponse
  let screen: (@Sendable (WebRequest) -> WebResponse?)?
  private struct State {
    var active = 0
    /// Connections over the limit, read only for an urgent path.
    var urgent = 0
    var stopped = false
    var open: [ObjectIdentifier: Channel] = [:]
    /// Body bytes held by every connection's requests.
    var bodyBytes = 0
  }
  private let state = Mutex(State())

  init(
    limits: HTTPServer.Limits, screen: (@Sendable (WebRequest) -> WebResponse?)?,
    handler: @escaping @Sendable (WebRequest) -> WebResponse
  ) {
    self.limits = limits
    self.screen = screen
    self.handler = handler
  }

  var active: Int { state.withLock { $0.active } }
  var stopped: Bool { state.withLock { $0.stopped } }

  /// The connections open now, the first time; nil after.
  func stop() -> [Channel]? {
    state.withLock { state in
      guard !state.stopped else { return nil }
      state.stopped = true
      return Array(state.open.values)
    }
  }

  /// Reserves `count` body bytes of the budget every connection shares; false when they do not
  /// fit.
  func reserveBody(_ count: Int) -> Bool {
    state.withLock { state in
      guard state.bodyBytes + count <= limits.bodyBudget else { return false }
      state.bodyBytes += count
      return true
    }
  }

  /// Gives back body bytes reserved.
  func releaseBody(_ count: Int) {
    guard count > 0 else { return }
    state.withLock { $0.bodyBytes -= count }
  }

  /// Body bytes reserved now.
  var bodyBytes: Int { state.withLock { $0.bodyBytes } }

  /// Sets up an accepted connection: served; over the limit, read only for an urgent path
  /// (`/healthz` stays answered whoever holds the connections); past that, answered 503.
  func admit(_ channel: Channel) -> EventLoopFuture<Void> {
    let key = ObjectIdentifier(channel)
    // nil: refused; true: over the limit, read only for an urgent path.
    let slot = state.withLock { state -> Bool? in
      var urgentOnly = false
      if state.active < limits.connections {
        state.active += 1
      } else if state.urgent < limits.urgentConnections {
        state.urgent += 1
        urgentOnly = true
      } else {
        return nil
      }
      state.open[key] = channel
      return urgentOnly
    }
    guard let urgentOnly = slot else {
      return channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.addHandler(TooMany())
      }
    }
    channel.closeFuture.whenComplete { [self] _ in
      state.withLock { state in
        if urgentOnly { state.urgent -= 1 } else { state.active -= 1 }
        state.open[key] = nil
      }
    }
    return channel.eventLoop.makeCompletedFuture {
      var decoderLimits = NIOHTTPDecoderLimitConfiguration()
      decoderLimits.maxHeaderListSize = limits.headerBytes
      decoderLimits.maxHeaderFieldSize = limits.headerBytes
      let connection = Connection(shared: self, urgentOnly: urgentOnly)
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
final class TooMany: ChannelInboundHandler {
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
final class AcceptProblemLogger: ChannelInboundHandler {
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
final class ByteWatcher: ChannelInboundHandler {
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
