import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A raw HTTP/1.1 exchange with a loopback server: the bytes sent as given, the whole answer
/// read until the server closes (or `timeout`). Headers are sent exactly as written (a Host
/// that names another server, a header too large), which URLSession would not do.
public enum RawHTTP {
  public static func exchange(port: UInt16, _ request: String, timeout: Double = 5) throws -> String {
    let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(connection) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw CocoaError(.fileReadUnknown) }
    var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    let bytes = Array(request.utf8)
    _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(connection, &chunk, chunk.count, 0)
      if count <= 0 { break }
      answer += chunk[..<count]
    }
    return String(decoding: answer, as: UTF8.self)
  }
}
