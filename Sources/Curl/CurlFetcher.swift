internal import CLibCurl
public import ClarissaCore
internal import Foundation
internal import Tracing

/// Fetches with libcurl's multi interface: one thread per fetcher drives every transfer, and
/// connections are kept and reused between requests to a host. http and https only (redirects
/// included), up to 20 redirects, every encoding libcurl can decompress, no cookies and no cache
/// (conditional GET is ours). Each transfer is held to a whole-request deadline (a body that
/// trickles in cannot hang a run) and a size cap checked as the body arrives.
///
/// URLSession was the first choice (see ARCHITECTURE.md); on Linux its memory grew with every
/// request (~0.2 KB each, 41 to 54 MB over 50,000 requests in `watch`), while libcurl used
/// directly stays flat: see docs/reliability.md.
///
/// A request whose first connection lands on a public address is never led into the user's
/// network: a later connection (a redirect's) to a loopback, link-local or private address is
/// refused (``RedirectGuard``), unless the request allows it (`allow_private_redirects`). The
/// address checked is the one libcurl connects to, so a public name that resolves to a private
/// address is caught as well: before a new connection is opened (CURLOPT_OPENSOCKETFUNCTION, no
/// packet reaches the address) and before each request is sent, on a new or a reused connection
/// (CURLOPT_PREREQFUNCTION, which also sees the first connection's address).
public final class CurlFetcher: Fetcher, Sendable {
  private let limits: FetchLimits
  private let engine: CurlEngine
  private let privateNetworks: PrivateNetworks

  /// Creates a fetcher held to `limits`, with at most `connectionsPerHost` open to one host.
  /// `privateNetworks` are the addresses a request that started public may not reach (tests
  /// take a loopback address as public).
  public init(
    limits: FetchLimits, connectionsPerHost: Int = 2,
    privateNetworks: PrivateNetworks = .standard
  ) {
    self.limits = limits
    self.privateNetworks = privateNetworks
    engine = CurlEngine(connectionsPerHost: connectionsPerHost)
  }

  /// Ends the fetcher's thread and closes its connections; transfers still running fail as
  /// cancelled.
  deinit { engine.stop() }

  public func fetch(_ request: RequestSpec, headers: [String: String]) async -> Result<
    HTTPResponse, FetchError
  > {
    guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https"
    else {
      return .failure(FetchError(.network, "'\(request.url)' is not an http(s) URL"))
    }
    let transfer = CurlTransfer(
      request: request, headers: request.headers.merging(headers, uniquingKeysWith: { $1 }),
      limits: limits)
    if !request.allowsPrivateRedirects {
      transfer.redirectGuard = RedirectGuard(networks: privateNetworks, source: request.url)
    }
    let engine = self.engine
    // Cancelling the run (watch stopping) ends the transfer at once.
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        transfer.continuation = continuation
        engine.submit(transfer)
      }
    } onCancel: {
      engine.cancel(transfer)
    }
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
  }
}

/// One request on its way: what to send, and what has come back so far. Touched by the engine's
/// thread only, but for `cancelRequested`, which the engine's lock guards.
final class CurlTransfer: @unchecked Sendable {
  // Holds libcurl's easy handle and buffers: only the engine's thread touches them (see above).
  let request: RequestSpec
  let headers: [String: String]
  let limits: FetchLimits
  var continuation: CheckedContinuation<Result<HTTPResponse, FetchError>, Never>?
  var cancelRequested = false

  var easy: UnsafeMutableRawPointer?
  var headerList: UnsafeMutablePointer<curl_slist>?
  let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
  var responseHeaders: [String: String] = [:]
  var body: [UInt8] = []
  var failure: FetchError?
  /// Keeps a request that started public out of private addresses; nil when it may go there.
  var redirectGuard: RedirectGuard?
  /// A connection the guard did not let open: the reason, when no other address answered.
  var refusedConnection: FetchError?

  init(request: RequestSpec, headers: [String: String], limits: FetchLimits) {
    self.request = request
    self.headers = headers
    self.limits = limits
    errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
  }

  deinit {
    if let headerList { curl_slist_free_all(headerList) }
    errorText.deallocate()
  }

  /// Called by libcurl for each header line of each response (redirects included). Read as
  /// bytes: this runs a dozen times per request.
  func header(_ line: UnsafeRawBufferPointer) {
    let bytes = line.bindMemory(to: UInt8.self)
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
    if bytes.starts(with: "HTTP/".utf8) {
      // A channel's answer has begun to arrive: the start of its way back to the receipt.
      if request.mode == "notify" { DeliveryTrace.note("read", headers["Idempotency-Key"] ?? "") }
      responseHeaders = [:]  // a new response: a redirect's headers are not the final ones
      return
    }
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
    var nameEnd = colon
    while nameEnd > 0, isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
    var valueStart = colon + 1
    var valueEnd = bytes.count
    while valueStart < valueEnd, isSpace(bytes[valueStart]) { valueStart += 1 }
    while valueEnd > valueStart, isSpace(bytes[valueEnd - 1]) { valueEnd -= 1 }
    // Names are ASCII (RFC 9110); values are kept as sent, Latin-1 when they are not UTF-8.
    let name = String(
      decoding: bytes[..<nameEnd].map { $0 | (($0 >= 0x41 && $0 <= 0x5A) ? 0x20 : 0) },
      as: UTF8.self)
    let raw = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
    let value =
      String(validating: raw, as: UTF8.self)
      ?? String(decoding: raw.map { UInt16($0) }, as: UTF16.self)
    if let earlier = responseHeaders[name] {
      responseHeaders[name] = earlier + ", " + value
    } else {
      responseHeaders[name] = value
    }
  }

  /// Called by libcurl with each piece of the (decompressed) body; false stops the transfer.
  func receive(_ data: UnsafeRawBufferPointer) -> Bool {
    if body.count + data.count > limits.maxBytes {
      failure = FetchError(.tooLarge, "the answer is larger than \(limits.maxBytes) bytes")
      return false
    }
    if body.isEmpty, let announced = responseHeaders["content-length"].flatMap({ Int($0) }),
      announced > data.count
    {
      // Room for the whole body at once (never more than the limit): a 15 MB feed grown by
      // doubling is copied about 30 MB and, while it is, held twice.
      body.reserveCapacity(min(announced, limits.maxBytes))
    }
    body.append(contentsOf: data)
    return true
  }

  /// A C string in a buffer, up to its terminating zero.
  private static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Called by libcurl before it connects to `address`: the socket, or -1 (CURL_SOCKET_BAD)
  /// when the guard refuses the address (libcurl then tries the name's other addresses).
  func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
    if let redirectGuard {
      var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
      let known = clarissa_curl_sockaddr_text(address, &text, socklen_t(text.count)) != 0
      if let refusal = redirectGuard.open(known ? Self.text(text) : "", for: currentURL) {
        refusedConnection = refusal
        return -1
      }
    }
    let family = address.pointee.family
    return socket(family, address.pointee.socktype, address.pointee.protocol)
  }

  /// Called by libcurl before each request (the first and every redirect's) is sent on a new or
  /// reused connection to `address`; false stops the transfer.
  func beforeRequest(to address: String) -> Bool {
    guard redirectGuard != nil else { return true }
    if let refusal = redirectGuard?.send(to: address, for: currentURL) {
      failure = refusal
      return false
    }
    return true
  }

  /// The URL being asked now: the last redirect's target.
  private var currentURL: String {
    easy.flatMap { clarissa_curl_effective_url($0) }.map { String(cString: $0) } ?? request.url
  }

  /// What became of the transfer, given libcurl's result.
  func outcome(_ code: CURLcode) -> Result<HTTPResponse, FetchError> {
    if let failure { return .failure(failure) }
    if code == CURLE_COULDNT_CONNECT, let refusedConnection { return .failure(refusedConnection) }
    guard let easy else { return .failure(FetchError(.network, "the transfer did not start")) }
    if code == CURLE_OK {
      let finalURL = clarissa_curl_effective_url(easy).map { String(cString: $0) } ?? request.url
      return .success(
        HTTPResponse(
          status: clarissa_curl_response_code(easy), headers: responseHeaders, body: body,
          finalURL: finalURL))
    }
    return .failure(describe(code))
  }

  private func describe(_ code: CURLcode) -> FetchError {
    let detail = String(cString: errorText)
    let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return FetchError(
        .timeout, "no complete answer within \(CurlFetcher.seconds(limits.timeout))")
    case CURLE_FILESIZE_EXCEEDED:
      let announced = responseHeaders["content-length"].map { "announces \($0) bytes" }
      return FetchError(
        .tooLarge,
        "the answer \(announced ?? "is larger than the limit"); the limit is \(limits.maxBytes)")
    case CURLE_COULDNT_RESOLVE_HOST: return FetchError(.network, "host not found")
    case CURLE_COULDNT_CONNECT:
      // "connection refused" says more than libcurl's "Failed to connect to ... after 0 ms".
      let number = easy.map { Int32(clarissa_curl_os_errno($0)) } ?? 0
      let cause = number != 0 ? String(cString: strerror(number)).lowercased() : reason
      return FetchError(.network, "cannot connect (\(cause))")
    case CURLE_GOT_NOTHING:
      return FetchError(.network, "the server closed the connection without answering")
    case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
      return FetchError(.network, "the connection was lost (\(reason))")
    case CURLE_TOO_MANY_REDIRECTS: return FetchError(.network, "more than 20 redirects")
    case CURLE_UNSUPPORTED_PROTOCOL:
      return FetchError(.network, "redirected to a URL that is not http(s) (\(reason))")
    case CURLE_WEIRD_SERVER_REPLY: return FetchError(.network, "the answer is not HTTP (\(reason))")
    case CURLE_BAD_CONTENT_ENCODING:
      return FetchError(.network, "the body could not be decompressed (\(reason))")
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR:
      // OpenSSL reads a plain-HTTP answer's first bytes as a TLS record of a wrong version.
      let plain =
        reason.contains("wrong version number") || reason.contains("packet length too long")
        ? "; is this server plain HTTP? (try http://, or ntfy:// and json:// for a channel)" : ""
      return FetchError(.network, "TLS failed (\(reason))\(plain)")
    default:
      return FetchError(.network, reason.lowercased())
    }
  }
}
