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
