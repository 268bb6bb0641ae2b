internal import Foundation
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix

/// How a connection writes its answers, reads a header name and counts time.
extension Connection {
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

  /// RFC 9110's token characters, what a header name is made of.
  static func isToken(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// `seconds` as NIO's time amount.
  static func amount(_ seconds: Double) -> TimeAmount {
    .nanoseconds(Int64(seconds * 1e9))
  }
}
