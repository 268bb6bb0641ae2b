internal import ActionKeys
internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import WebServer

/// What the pages and the API share: answers of each kind, and the checks and encodings of
/// what a request brings (paths, addresses, keys, tokens).
extension WebApp {
  static func wantsJSON(_ request: WebRequest) -> Bool {
    request.segments.first == "api" || request.segments.first == "healthz"
  }

  /// A file of ``Assets`` (UTF-8 text of `type`), kept by the browser for an hour.
  static func asset(_ bytes: [UInt8], type: String) -> WebResponse {
    WebResponse(
      headers: [("Content-Type", "\(type); charset=utf-8"), ("Cache-Control", "max-age=3600")],
      body: bytes)
  }

  static func json(_ object: Any, status: Int = 200) -> WebResponse {
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]))
      ?? Data("{}".utf8)
    return WebResponse(
      status: status,
      headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
      body: Array(data) + [10])
  }

  static func encoded<T: Encodable>(_ value: T) -> WebResponse {
    json(bytes: Array(ListingJSON.data(value) ?? Data("null".utf8)) + [10])
  }

  /// JSON already written.
  static func json(bytes: [UInt8]) -> WebResponse {
    WebResponse(
      headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: bytes)
  }

  /// `target` when it is a path on this server, else `/`: what a redirect built from a request
  /// may lead to. Percent-decoded (as often as it decodes), it must begin with exactly one
  /// `/` (not `//` nor `/\`, which a browser takes for another server) and hold no backslash,
  /// line break or other control character (`/%0A/evil.example` would become
  /// `//evil.example` once a line break is dropped).
  static func local(_ target: String) -> String {
    var forms = [target]
    var last = target
    while forms.count < 4, let decoded = last.removingPercentEncoding, decoded != last {
      forms.append(decoded)
      last = decoded
    }
    for form in forms {
      let scalars = Array(form.unicodeScalars)
      guard scalars.first == "/", scalars.count < 2 || (scalars[1] != "/" && scalars[1] != "\\"),
        !scalars.contains(where: {
          $0 == "\\" || $0.properties.generalCategory == .control || $0 == "\u{7F}"
        })
      else { return "/" }
    }
    return target
  }

  /// `http:` and `https:` URLs only: what a link or a redirect may lead to.
  static func webURL(_ text: String) -> String? {
    if isPlainWebURL(text) { return text }
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host != nil
    else { return nil }
    return text
  }

  /// `http://` or `https://`, a host that begins with a letter or digit, then only letters,
  /// digits and `-._~/?#&=+,;:!$'()*`: a web address whatever parses it, known without the URL
  /// parser (some 3 µs an address; the map checks 20,000). Anything else (`%`, `@`, brackets,
  /// spaces, other letters, capitals in the scheme) goes to the parser.
  private static func isPlainWebURL(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    let start: Int
    if bytes.starts(with: Array("https://".utf8)) {
      start = 8
    } else if bytes.starts(with: Array("http://".utf8)) {
      start = 7
    } else {
      return false
    }
    guard start < bytes.count, isAlphanumeric(bytes[start]) else { return false }
    return bytes[start...].allSatisfy { isAlphanumeric($0) || plainURLMarks.contains($0) }
  }

  private static let plainURLMarks = Set("-._~/?#&=+,;:!$'()*".utf8)

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: false
    }
  }

  /// A path segment, percent-encoded. Most (sites, ids) are letters, digits and `-._~` only,
  /// returned as they are: Foundation's encoder took a third of the map's 10,000 markers' time.
  static func segment(_ text: String) -> String {
    if text.utf8.allSatisfy(isUnreserved) { return text }
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "/?#%;")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }

  /// An ASCII letter or digit, `-`, `.`, `_` or `~` (RFC 3986's unreserved characters).
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
  }

  /// A query value, percent-encoded.
  static func queryValue(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }

  /// `SITE:ID` as a key.
  static func key(_ text: String) -> ListingKey? {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    return parts.count == 2 ? ListingKey(site: parts[0], id: parts[1]) : nil
  }

  static func bearer(_ header: String) -> String? {
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingCharacters(in: .whitespaces)
  }

  /// Compares secrets in time that does not depend on where they differ.
  static func same(_ a: String, _ b: String) -> Bool { Secret.same(Array(a.utf8), Array(b.utf8)) }

  static func withoutToken(_ request: WebRequest) -> String {
    let rest = request.query.pairs.filter { $0.name != "token" }
      .map { "\(queryValue($0.name))=\(queryValue($0.value))" }.joined(separator: "&")
    let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
    return rest.isEmpty ? path : "\(path)?\(rest)"
  }

  /// 429 to an address that gave too many wrong tokens: no token of its is looked at for `wait`
  /// seconds.
  static func tooManyGuesses(_ wait: Int, json: Bool) -> WebResponse {
    var response = RequestProblem(
      429, "too many wrong tokens from this address; try again in \(wait) s"
    ).response(json: json)
    response.headers.append(("Retry-After", "\(wait)"))
    return response
  }

  static func randomToken() -> String { Secret.hex(Secret.randomBytes(32)) }
}
