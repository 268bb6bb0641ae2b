internal import CLibCurl
internal import ClarissaCore
internal import Foundation
internal import Synchronization

/// The thread that drives libcurl's multi handle. Requests arrive through `submit` from any
/// thread; the thread adds them, waits in `curl_multi_poll` (woken by new work, cancellation or
/// `stop`) and resumes each request's continuation when its transfer ends.
final class CurlEngine: @unchecked Sendable {
  // Holds libcurl's multi handle and `active`, the engine thread's own; the rest is in `state`.
  private static let libraryReady: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

  private let multi: UnsafeMutableRawPointer?
  /// What any thread may touch (and, under it, each transfer's `cancelRequested`).
  private let state = Mutex(State())
  /// The engine thread's own.
  private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

  /// The requests handed over and not yet started, and whether the engine stops or stopped.
  private struct State {
    var incoming: [CurlTransfer] = []
    var stopping = false
    var closed = false
  }

  init(connectionsPerHost: Int) {
    multi = Self.libraryReady ? curl_multi_init() : nil
    guard let multi else {
      state.withLock { $0.closed = true }
      return
    }
    _ = clarissa_curlm_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connectionsPerHost)
    let thread = Thread { [self] in run() }
    thread.name = "clarissa-http"
    thread.start()
  }

  func submit(_ transfer: CurlTransfer) {
    let accepted = state.withLock { state in
      guard !state.closed, !state.stopping, let multi else { return false }
      state.incoming.append(transfer)
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
    state.withLock { state in
      transfer.cancelRequested = true
      if !state.closed, let multi { curl_multi_wakeup(multi) }
    }
  }

  func stop() {
    state.withLock { state in
      state.stopping = true
      if !state.closed, let multi { curl_multi_wakeup(multi) }
    }
  }

  private func run() {
    guard let multi else { return }
    var running: Int32 = 0
    while true {
      let (arrived, stop) = state.withLock { state in
        defer { state.incoming.removeAll() }
        return (state.incoming, state.stopping)
      }
      for transfer in arrived { start(transfer, on: multi) }
      let cancelled = state.withLock { _ in active.filter { $0.value.cancelRequested } }
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
    state.withLock { $0.closed = true }
    curl_multi_cleanup(multi)
  }

  private static let stopped = FetchError(.network, "cancelled: clarissa is stopping")

  private func start(_ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer) {
    if state.withLock({ _ in transfer.cancelRequested }) {
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
