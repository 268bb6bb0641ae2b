internal import Foundation

/// Name-value pairs of a query string or a form, decoded, in order.
package struct WebFields: Sendable {
  /// The pairs.
  package var pairs: [(name: String, value: String)]

  /// The first value of `name`.
  package func first(_ name: String) -> String? { pairs.first { $0.name == name }?.value }

  /// Every value of `name`, in order.
  package func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

  /// `a=1&b=x+y` decoded (`+` is a space).
  init(_ text: String) {
    pairs = text.split(separator: "&").compactMap { part in
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
      }
      guard let name = pair.first, !name.isEmpty else { return nil }
      return (decode(name), pair.count > 1 ? decode(pair[1]) : "")
    }
  }
}

/// A request as the server read it: the target split into a decoded path and query, header
/// names in lower case.
package struct WebRequest: Sendable {
  /// `GET`, `POST`, ... (`HEAD` is answered as `GET` without the body).
  package var method: String
  /// The request target as sent (`/search/cars?page=2`).
  package var target: String
  /// The target's path, percent-decoded (`/search/my cars`).
  package var path: String
  /// The path's segments, decoded, empty ones left out (`["search", "my cars"]`).
  package var segments: [String]
  /// The query's pairs, decoded (`+` is a space), in order.
  package var query: WebFields
  /// Header fields in order, names lower-cased.
  package var headers: [(name: String, value: String)]
  /// The body (`Content-Length` bytes).
  package var body: [UInt8]
  /// The address the request came from (`127.0.0.1`, `::1`), when the server knows it.
  package var client: String?

  /// The first value of a header (`name` in lower case).
  package func header(_ name: String) -> String? {
    headers.first { $0.name == name }?.value
  }

  /// The body's pairs when it is a form (`application/x-www-form-urlencoded`), else none.
  package var form: WebFields {
    guard
      header("content-type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    else { return WebFields("") }
    return WebFields(String(decoding: body, as: UTF8.self))
  }

  /// The value of a cookie sent with the request.
  package func cookie(_ name: String) -> String? {
    for field in headers where field.name == "cookie" {
      for part in field.value.split(separator: ";") {
        let pair = part.split(separator: "=", maxSplits: 1).map {
          $0.trimmingCharacters(in: .whitespaces)
        }
        if pair.count == 2, pair[0] == name { return pair[1] }
      }
    }
    return nil
  }

  /// Creates a request (the server does; tests may too).
  package init(
    method: String, target: String, headers: [(name: String, value: String)] = [],
    body: [UInt8] = [], client: String? = nil
  ) {
    self.client = client
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let rawPath = parts.first.map(String.init) ?? "/"
    path = rawPath.removingPercentEncoding ?? rawPath
    segments = rawPath.split(separator: "/").map {
      String($0).removingPercentEncoding ?? String($0)
    }
    query = WebFields(parts.count > 1 ? String(parts[1]) : "")
  }
}

/// What to answer.
package struct WebResponse: Sendable {
  /// The status code.
  package var status: Int
  /// Header fields. The server writes `Date`, `Content-Length` and `Connection` itself (fields
  /// of those names here are left out, as is `Transfer-Encoding`) and drops line breaks from
  /// values.
  package var headers: [(name: String, value: String)]
  /// The body.
  package var body: [UInt8]

  /// Creates a response.
  package init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = [])
  {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A text body with its content type.
  package static func text(_ text: String, status: Int = 200, type: String = "text/plain")
    -> WebResponse
  {
    WebResponse(
      status: status, headers: [("Content-Type", "\(type); charset=utf-8")],
      body: Array(text.utf8))
  }

  /// `303 See Other` to `location`.
  package static func redirect(_ location: String) -> WebResponse {
    WebResponse(status: 303, headers: [("Location", location)])
  }

  /// The reason phrase of a status.
  static func reason(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 204: "No Content"
    case 303: "See Other"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 413: "Content Too Large"
    case 417: "Expectation Failed"
    case 421: "Misdirected Request"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }
}
