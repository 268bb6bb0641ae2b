internal import CLibCurl
internal import Foundation

/// One mail handed to an SMTP server through libcurl (the same typed option wrappers as
/// `CurlFetcher`). libcurl's easy interface blocks, so each mail is sent on a thread of its own,
/// held to a whole-transfer deadline: a server that accepts the connection and never speaks ends
/// in a timeout, not a hang.
package enum SMTPClient {
  /// Where and how to send.
  package struct Envelope: Sendable {
    /// `smtp://host:port` or `smtps://host:port` (no user, no query).
    package var server: String
    package var username: String?
    package var password: String?
    package var from: String
    package var recipients: [String]
    /// STARTTLS required (`smtp://` without `tls=none`); `smtps://` is TLS from the start.
    package var requireTLS: Bool
    package var timeout: Double

    /// Creates an envelope.
    package init(
      server: String, username: String?, password: String?, from: String, recipients: [String],
      requireTLS: Bool, timeout: Double
    ) {
      self.server = server
      self.username = username
      self.password = password
      self.from = from
      self.recipients = recipients
      self.requireTLS = requireTLS
      self.timeout = timeout
    }
  }

  /// Sends `message` (CRLF lines); nil when the server took it, else one line saying what the
  /// server or the network did.
  package static func send(_ message: [UInt8], _ envelope: Envelope) async -> String? {
    await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(returning: SMTPTransfer(message, envelope).perform())
      }
      thread.name = "clarissa-smtp"
      thread.start()
    }
  }
}

/// The state of one SMTP transfer, touched only by its own thread (and libcurl's callbacks on it).
private final class SMTPTransfer {
  private static let libraryReady: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

  let message: [UInt8]
  let envelope: SMTPClient.Envelope
  var sent = 0
  /// The server's last reply line ("550 5.1.1 no such user"), from libcurl's header callback.
  var lastReply = ""
  let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

  init(_ message: [UInt8], _ envelope: SMTPClient.Envelope) {
    self.message = message
    self.envelope = envelope
    errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
  }

  deinit { errorText.deallocate() }

  func perform() -> String? {
    guard Self.libraryReady, let easy = curl_easy_init() else {
      return "libcurl could not start a transfer"
    }
    var recipients: UnsafeMutablePointer<curl_slist>?
    for address in envelope.recipients {
      recipients = curl_slist_append(recipients, "<\(address)>")
    }
    defer {
      curl_easy_cleanup(easy)
      if let recipients { curl_slist_free_all(recipients) }
    }
    configure(easy, recipients: recipients)
    let code = curl_easy_perform(easy)
    return code == CURLE_OK ? nil : describe(code, easy)
  }

  /// The server, the credentials, the envelope and the message's reader.
  private func configure(
    _ easy: UnsafeMutableRawPointer, recipients: UnsafeMutablePointer<curl_slist>?
  ) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    _ = clarissa_curl_set_string(easy, CURLOPT_URL, envelope.server)
    _ = clarissa_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "smtp,smtps")
    _ = clarissa_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
    _ = clarissa_curl_set_long(
      easy, CURLOPT_USE_SSL,
      Int(envelope.requireTLS ? CURLUSESSL_ALL.rawValue : CURLUSESSL_NONE.rawValue))
    _ = clarissa_curl_set_long(easy, CURLOPT_TIMEOUT_MS, max(1, Int(envelope.timeout * 1000)))
    if let username = envelope.username {
      _ = clarissa_curl_set_string(easy, CURLOPT_USERNAME, username)
    }
    if let password = envelope.password {
      _ = clarissa_curl_set_string(easy, CURLOPT_PASSWORD, password)
    }
    _ = clarissa_curl_set_string(easy, CURLOPT_MAIL_FROM, "<\(envelope.from)>")
    _ = clarissa_curl_set_pointer(
      easy, CURLOPT_MAIL_RCPT, recipients.map { UnsafeMutableRawPointer($0) })
    _ = clarissa_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
    _ = clarissa_curl_set_long(easy, CURLOPT_UPLOAD, 1)
    _ = clarissa_curl_set_offset(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count))
    _ = clarissa_curl_set_pointer(easy, CURLOPT_READDATA, context)
    _ = clarissa_curl_set_callback(easy, CURLOPT_READFUNCTION) { buffer, size, count, user in
      guard let user, let buffer else { return 0 }
      let transfer = Unmanaged<SMTPTransfer>.fromOpaque(user).takeUnretainedValue()
      return transfer.read(into: UnsafeMutableRawPointer(buffer), capacity: size * count)
    }
    _ = clarissa_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
    _ = clarissa_curl_set_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, user in
      guard let user, let data else { return 0 }
      let transfer = Unmanaged<SMTPTransfer>.fromOpaque(user).takeUnretainedValue()
      let line = UnsafeRawBufferPointer(start: data, count: size * count)
      transfer.lastReply = Excerpt.oneLine(line, limit: 200)
      return size * count
    }
  }

  private func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
    let count = min(capacity, message.count - sent)
    guard count > 0 else { return 0 }
    message.withUnsafeBytes { bytes in
      if let base = bytes.baseAddress { buffer.copyMemory(from: base + sent, byteCount: count) }
    }
    sent += count
    return count
  }

  private func describe(_ code: CURLcode, _ easy: UnsafeMutableRawPointer) -> String {
    let detail = String(cString: errorText)
    let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    let reply = clarissa_curl_response_code(easy)
    let said = lastReply.isEmpty || reply < 400 ? "" : " (the server said '\(lastReply)')"
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return
        "no complete answer from the mail server within \(CurlFetcher.seconds(envelope.timeout))"
    case CURLE_USE_SSL_FAILED:
      return "the mail server does not offer STARTTLS, and clarissa sends mail only encrypted; "
        + "for a relay on this machine add '?tls=none' to the URL, or use 'smtps://'"
    case CURLE_LOGIN_DENIED: return "the mail server refused the login\(said)"
    case CURLE_COULDNT_RESOLVE_HOST: return "host not found"
    case CURLE_COULDNT_CONNECT:
      let number = Int32(clarissa_curl_os_errno(easy))
      let cause = number != 0 ? String(cString: strerror(number)).lowercased() : reason
      return "cannot connect (\(cause))"
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR:
      return "TLS failed (\(reason))"
    case CURLE_GOT_NOTHING: return "the mail server closed the connection without answering"
    default:
      if reply >= 400 { return "the mail server refused the mail: \(lastReply)" }
      return reason.lowercased() + said
    }
  }
}
