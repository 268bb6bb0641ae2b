internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// One HTTP/1.1 connection to a server on 127.0.0.1, for the tests and the benchmark: it sends
/// bytes exactly as given (a Host naming another server, a header too large), and reads answers
/// by their `Content-Length` (keep-alive) or to the end (a closed connection).
package struct LoopbackClient {
  private let socket: Int32
  private var buffer: [UInt8] = []

  /// Connects `socket` to 127.0.0.1:`port`; false when nothing listens there.
  package static func connect(_ socket: Int32, port: UInt16) -> Bool {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    } == 0
  }

  /// Connects, or nil when nothing listens on `port`.
  package init?(port: UInt16, timeout: Double = 10) {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard Self.connect(socket, port: port) else {
      _ = Glibc.close(socket)
      return nil
    }
    var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Closes the connection.
  package func close() { _ = Glibc.close(socket) }

  /// Sends bytes as they are.
  package func send(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Everything the server sends until it closes the connection (or the timeout).
  package mutating func readToEnd() -> String {
    while let more = receive() { buffer += more }
    defer { buffer = [] }
    return String(decoding: buffer, as: UTF8.self)
  }

  /// A GET on the kept-alive connection: the answer's status (0 when none came), its body read.
  package mutating func get(_ target: String, host: String = "127.0.0.1") -> Int {
    send("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
    while true {
      if let end = HTTPServer.headerEnd(buffer) {
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        let length =
          head.split(separator: "\r\n")
          .first { $0.lowercased().hasPrefix("content-length:") }
          .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        while buffer.count < end + 4 + length {
          guard let more = receive() else { return 0 }
          buffer += more
        }
        buffer.removeFirst(end + 4 + length)
        return Int(head.split(separator: " ")[1]) ?? 0
      }
      guard let more = receive() else { return 0 }
      buffer += more
    }
  }

  /// The next answer's status line and headers (without the blank line), taken from what came;
  /// nil when the connection closed (or the timeout) first. Its body, if any, is left unread.
  package mutating func readHead() -> String? {
    while true {
      if let end = HTTPServer.headerEnd(buffer) {
        defer { buffer.removeFirst(end + 4) }
        return String(decoding: buffer[..<end], as: UTF8.self)
      }
      guard let more = receive() else { return nil }
      buffer += more
    }
  }

  private func receive() -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = recv(socket, &chunk, chunk.count, 0)
    return count > 0 ? Array(chunk[..<count]) : nil
  }
}
