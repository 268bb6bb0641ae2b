import CLibCurl
import ClarissaCore
import Foundation

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
    body.append(contentsOf: data)
    return true
  }

  /// Called by libcurl before it connects to `address`: the socket, or -1 (CURL_SOCKET_BAD)
  /// when the guard refuses the address (libcurl then tries the name's other addresses).
  func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
    if let redirectGuard {
      var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
      let known = clarissa_curl_sockaddr_text(address, &text, socklen_t(text.count)) != 0
      if let refusal = redirectGuard.open(known ? String(cString: text) : "", for: currentURL) {
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

/// The thread that drives libcurl's multi handle. Requests arrive through `submit` from any
/// thread; the thread adds them, waits in `curl_multi_poll` (woken by new work, cancellation or
/// `stop`) and resumes each request's continuation when its transfer ends.
final class CurlEngine: @unchecked Sendable {
  private static let libraryReady: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

  private let lock = NSLock()
  private let multi: UnsafeMutableRawPointer?
  /// Guarded by `lock`.
  private var incoming: [CurlTransfer] = []
  private var stopping = false
  private var closed = false
  /// The engine thread's own.
  private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

  init(connectionsPerHost: Int) {
    multi = Self.libraryReady ? curl_multi_init() : nil
    guard let multi else {
      closed = true
      return
    }
    _ = clarissa_curlm_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
    let thread = Thread { [self] in run() }
    thread.name = "clarissa-http"
    thread.start()
  }

  func submit(_ transfer: CurlTransfer) {
    let accepted = lock.withLock {
      guard !closed, !stopping, let multi else { return false }
      incoming.append(transfer)
      curl_multi_wakeup(multi)
      return true
    }
    if !accepted {
      transfer.continuation?.resume(
        returning: .failure(FetchError(.network, "cancelled: clarissa is stopping")))
      transfer.continuation = nil
    }
  }

  func cancel(_ transfer: CurlTransfer) {
    lock.withLock {
      transfer.cancelRequested = true
      if !closed, let multi { curl_multi_wakeup(multi) }
    }
  }

  func stop() {
    lock.withLock {
      stopping = true
      if !closed, let multi { curl_multi_wakeup(multi) }
    }
  }

  private func run() {
    guard let multi else { return }
    var running: Int32 = 0
    while true {
      let (arrived, stop) = lock.withLock {
        defer { incoming.removeAll() }
        return (incoming, stopping)
      }
      for transfer in arrived { start(transfer, on: multi) }
      let cancelled = lock.withLock { active.filter { $0.value.cancelRequested } }
      for (easy, transfer) in cancelled {
        end(easy, transfer, on: multi, with: .failure(Self.stopped))
      }
      if stop {
        for (easy, transfer) in active {
          end(easy, transfer, on: multi, with: .failure(Self.stopped))
        }
        break
      }
      curl_multi_perform(multi, &running)
      var queued: Int32 = 0
      while let message = curl_multi_info_read(multi, &queued) {
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
          let transfer = active[easy]
        else { continue }
        let result = transfer.outcome(clarissa_curl_message_result(message))
        end(easy, transfer, on: multi, with: result)
      }
      curl_multi_poll(multi, nil, 0, 1000, nil)
    }
    lock.withLock { closed = true }
    curl_multi_cleanup(multi)
  }

  private static let stopped = FetchError(.network, "cancelled: clarissa is stopping")

  private func start(_ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer) {
    if lock.withLock({ transfer.cancelRequested }) {
      transfer.continuation?.resume(returning: .failure(Self.stopped))
      transfer.continuation = nil
      return
    }
    guard let easy = curl_easy_init() else {
      transfer.continuation?.resume(
        returning: .failure(FetchError(.network, "libcurl could not start a transfer")))
      transfer.continuation = nil
      return
    }
    transfer.easy = easy
    configure(easy, for: transfer)
    active[easy] = transfer
    curl_multi_add_handle(multi, easy)
  }

  private func end(
    _ easy: UnsafeMutableRawPointer, _ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer,
    with result: Result<HTTPResponse, FetchError>
  ) {
    active[easy] = nil
    curl_multi_remove_handle(multi, easy)
    curl_easy_cleanup(easy)
    transfer.easy = nil
    transfer.continuation?.resume(returning: result)
    transfer.continuation = nil
  }

  private func configure(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer) {
    let request = transfer.request
    let limits = transfer.limits
    let context = Unmanaged.passUnretained(transfer).toOpaque()
    _ = clarissa_curl_set_string(easy, CURLOPT_URL, request.url)
    _ = clarissa_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
    _ = clarissa_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
    _ = clarissa_curl_set_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
    _ = clarissa_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 1)
    _ = clarissa_curl_set_long(easy, CURLOPT_MAXREDIRS, 20)
    _ = clarissa_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, "")  // all libcurl can decode
    _ = clarissa_curl_set_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(limits.timeout * 1000)))
    _ = clarissa_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBytes))
    _ = clarissa_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorText)
    _ = clarissa_curl_set_pointer(easy, CURLOPT_PRIVATE, context)
    _ = clarissa_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)
    _ = clarissa_curl_set_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, user in
      guard let user else { return 0 }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
      let length = size * count
      return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }
    _ = clarissa_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
    _ = clarissa_curl_set_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, user in
      guard let user else { return 0 }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
      let length = size * count
      transfer.header(UnsafeRawBufferPointer(start: data, count: length))
      return length
    }
    if transfer.redirectGuard != nil { setGuard(easy, context: context) }
    setHeaders(easy, for: transfer)
    setBody(easy, for: request)
  }

  /// The callbacks that let the transfer's ``RedirectGuard`` see every address it connects to.
  private func setGuard(_ easy: UnsafeMutableRawPointer, context: UnsafeMutableRawPointer) {
    _ = clarissa_curl_set_pointer(easy, CURLOPT_OPENSOCKETDATA, context)
    _ = clarissa_curl_set_opensocket(easy) { user, purpose, address in
      guard let user, let address, purpose == CURLSOCKTYPE_IPCXN else { return -1 }
      return Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue().openSocket(address)
    }
    _ = clarissa_curl_set_pointer(easy, CURLOPT_PREREQDATA, context)
    _ = clarissa_curl_set_prereq(easy) { user, primaryIP, _, _, _ in
      guard let user else { return CURL_PREREQFUNC_ABORT }
      let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
      let address = primaryIP.map { String(cString: $0) } ?? ""
      return transfer.beforeRequest(to: address) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
    }
  }

  /// The request's headers, in a list libcurl keeps until the transfer ends.
  private func setHeaders(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer) {
    var list: UnsafeMutablePointer<curl_slist>?
    // No "Expect: 100-continue" pause before a webhook's body.
    for line in ["Expect:"]
      + transfer.headers.sorted(by: { $0.key < $1.key }).map({
        "\($0.key): \($0.value)"
      })
    {
      list = curl_slist_append(list, line)
    }
    transfer.headerList = list
    _ = clarissa_curl_set_pointer(
      easy, CURLOPT_HTTPHEADER, list.map { UnsafeMutableRawPointer($0) })
  }

  /// A POST's body (copied by libcurl), or another method.
  private func setBody(_ easy: UnsafeMutableRawPointer, for request: RequestSpec) {
    let method = request.method.uppercased()
    if method == "POST" || request.body != nil {
      let body = request.body ?? []
      _ = clarissa_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
      body.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { text in
          if let start = text.baseAddress {
            _ = clarissa_curl_set_string(easy, CURLOPT_COPYPOSTFIELDS, start)
          } else {
            _ = clarissa_curl_set_string(easy, CURLOPT_COPYPOSTFIELDS, "")
          }
        }
      }
    }
    if method != "GET" && method != "POST" {
      _ = clarissa_curl_set_string(easy, CURLOPT_CUSTOMREQUEST, method)
    }
  }
}
