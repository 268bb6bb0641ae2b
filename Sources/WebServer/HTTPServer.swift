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

/// Why the server could not start.
package struct ServerProblem: Error, CustomStringConvertible, Sendable {
  /// What went wrong, naming the address.
  package var message: String
  /// The address is well written, but cannot be listened on (in use, not this machine's, not
  /// allowed): not a mistake of the command line.
  package var cannotListen = false
  package var description: String { message }
}

/// A small HTTP/1.1 server on SwiftNIO (NIOHTTP1's request decoder, llhttp): a few event loops
/// hold every connection (at most ``Limits/connections`` at once; the next ones are answered
/// 503, but for ``Limits/urgentPaths``), and the handler, which is synchronous and may read a
/// database, runs on a bounded pool of threads, never on an event loop. Keep-alive and
/// pipelining (answers in order), HEAD, `Expect: 100-continue`, bounded everywhere: header
/// bytes, body bytes (a request's, a connection's, all connections'), time to send a request,
/// time to read an answer, idle time. Request bodies are `Content-Length` ones only (chunked ones
/// are answered 501); a request that could be read two ways (two `Content-Length`s,
/// `Content-Length` with `Transfer-Encoding`, a space or tab before a header's colon, two
/// `Host`s) is answered 400 and the connection closed. Nothing in it is specific to clarissa.
///
/// NIOHTTP1 directly rather than Hummingbird 2: Hummingbird resolves 24 packages to swift-nio's
/// 4 and takes 2.5 times the CPU to build clean (debug and release alike), for a server that
/// serves one person's browser and a monitoring scraper. docs/serve.md has the measurements.
package final class HTTPServer: Sendable {
  /// The bounds every connection is held to.
  package struct Limits: Sendable {
    /// Connections served at once; more are answered 503 and closed.
    package var connections = 4096
    /// The request line and headers together.
    package var headerBytes = 16 * 1024
    /// A request body.
    package var bodyBytes = 256 * 1024
    /// Seconds to send a whole request once its first byte has come.
    package var requestSeconds = 10.0
    /// Seconds a kept-alive connection may sit idle.
    package var idleSeconds = 15.0
    /// Seconds a client has to read one whole answer; a slower reader is closed.
    package var responseSeconds = 30.0
    /// Paths answered on a thread of their own, never queued behind other requests' handlers
    /// (a health check stays answered while a thousand pages are being made), and past
    /// ``connections``: a connection over the limit is read for ``urgentSeconds`` and answered
    /// when it asks for one of them (503 otherwise).
    package var urgentPaths: Set<String> = ["/healthz"]
    /// Connections over ``connections`` read for an urgent path at once; more are answered 503
    /// at once.
    package var urgentConnections = 256
    /// Seconds a connection over ``connections`` has to send its request.
    package var urgentSeconds = 2.0
    /// Body bytes one connection holds at most (its requests read and not yet answered): past
    /// it, it is not read until they are answered.
    package var connectionBodyBytes = 256 * 1024
    /// Body bytes all connections together hold at most; a request whose `Content-Length` does
    /// not fit is answered 503 without its body being read.
    package var bodyBudget = 16 * 1024 * 1024

    /// The defaults.
    package init() {}
  }

  /// The address it listens on, as bound (the port is the real one when 0 was asked).
  package let host: String
  /// The port it listens on.
  package let port: UInt16
  /// Whether the address is a loopback one (127.0.0.0/8, ::1).
  package let isLoopback: Bool

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
  /// `localhost:0`); ``start()`` begins serving. `screen`, when given, sees each request that
  /// carries a body once its head is read, without the body, and may answer it (the Host
  /// refused, no token): the body is then never read and the connection closed. It runs on an
  /// event loop: it must be quick and must not block.
  package init(
    address: String, limits: Limits = Limits(),
    screen: (@Sendable (WebRequest) -> WebResponse?)? = nil,
    handler: @escaping @Sendable (WebRequest) -> WebResponse
  ) throws {
    let (name, service) = try Self.split(address)
    Self.raiseDescriptorLimit(to: limits.connections + limits.urgentConnections + 256)
    let shared = Shared(limits: limits, screen: screen, handler: handler)
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
      var problem = ServerProblem(
        message: "cannot listen on '\(address)': \(Self.reason(error))", cannotListen: true)
      if let error = error as? IOError, error.errnoCode == EADDRINUSE {
        problem.message +=
          " (another clarissa serve or watch --http, or another program, has it); choose "
          + "another port, such as --http \(name):\(UInt16(service).map { $0 &+ 1 } ?? 8422)"
      }
      throw problem
    }
    let bound = listener.localAddress
    let text = bound?.ipAddress ?? name
    host = text
    port = UInt16(clamping: bound?.port ?? 0)
    isLoopback = text == "::1" || text.hasPrefix("127.")
  }

  deinit { stop() }

  /// `host:port` as a browser would write it (`[::1]:8421` for IPv6).
  package var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Begins accepting connections (on the event loops) until ``stop()``.
  package func start() {
    listener.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
  }

  /// Stops accepting; connections being served finish their request, idle ones are closed.
  package func stop() {
    guard let open = shared.stop() else { return }
    listener.close(promise: nil)
    for channel in open {
      channel.pipeline.fireUserInboundEventTriggered(ServerStopping())
    }
  }

  /// Connections being served now.
  package var activeConnections: Int { shared.active }

  /// Body bytes the connections hold now (requests being received or not yet answered).
  package var heldBodyBytes: Int { shared.bodyBytes }

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
