import Foundation
import WebServer

/// A raw HTTP/1.1 exchange with a loopback server: the bytes sent as given, the whole answer
/// read until the server closes (or `timeout`). Headers are sent exactly as written (a Host
/// that names another server, a header too large), which URLSession would not do.
public enum RawHTTP {
  public static func exchange(port: UInt16, _ request: String, timeout: Double = 5) throws -> String
  {
    guard var client = LoopbackClient(port: port, timeout: timeout) else {
      throw CocoaError(.fileReadUnknown)
    }
    defer { client.close() }
    client.send(request)
    return client.readToEnd()
  }
}
