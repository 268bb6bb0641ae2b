import ClarissaCore
import Foundation

/// Runs a local program with input on stdin, within a time limit; a non-zero exit is a refusal.
enum Program {
  static func run(
    _ path: String, _ arguments: [String], input: [UInt8], environment: [String: String],
    timeout: Double, channel: String
  ) async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    let stdin = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    do { try process.run() } catch {
      throw DeliveryError(
        "channel '\(channel)': cannot run '\(path)': \(error.localizedDescription)")
    }
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    // stderr is read while stdin is written: a program that says a lot before reading its input
    // would otherwise wait on us while we wait on it.
    let errorReader = Task.detached { stderr.fileHandleForReading.readDataToEndOfFile() }
    let writer = stdin.fileHandleForWriting
    await Task.detached {
      Self.feed(input, to: writer.fileDescriptor)
      try? writer.close()
    }.value
    let errorText = await errorReader.value
    await Task.detached { process.waitUntilExit() }.value
    killer.cancel()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      let detail = Excerpt.oneLine(errorText.suffix(4096), limit: 300, keepingEnd: true)
      let how =
        process.terminationReason == .uncaughtSignal
        ? "was stopped after \(Int(timeout)) s" : "exited with status \(process.terminationStatus)"
      throw DeliveryError(
        "channel '\(channel)': '\((path as NSString).lastPathComponent)' \(how)"
          + (detail.isEmpty ? "" : ": \(detail)"))
    }
  }

  /// Writes `bytes` to a pipe whose reader may have gone (a program that exits without reading
  /// its input is fine; its exit status decides). The SIGPIPE such a write draws would end
  /// clarissa before it saves its state, so it is blocked on this thread for the write and
  /// taken off the thread afterwards; the rest of the process keeps its own disposition.
  static func feed(_ bytes: [UInt8], to descriptor: Int32) {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let broken = FileWriting.writeAll(bytes, to: descriptor) == EPIPE
    if broken {
      var pending = sigset_t()
      sigpending(&pending)
      if sigismember(&pending, SIGPIPE) == 1 {
        var now = timespec()
        _ = sigtimedwait(&pipeSignal, nil, &now)
      }
    }
  }

  /// The program's path: as written when it has a slash, else found on PATH.
  static func locate(_ name: String, environment: [String: String]) -> String? {
    if name.contains("/") { return name }
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}

/// `exec:COMMAND ARGS`: the listings as JSON on stdin, the common fields in the environment
/// (`CLARISSA_SEARCH`, `CLARISSA_COUNT`, `CLARISSA_TITLE`, `CLARISSA_URL`, `CLARISSA_PRICE`,
/// `CLARISSA_LOCATION`, `CLARISSA_ID` for the first listing of the message).
struct ExecChannel: DeliveryChannel {
  let channel: Channel
  let environment: [String: String]
  let baseDirectory: String

  var name: String { channel.name }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    // What a site sent reaches a message only through the sanitiser (an older store may
    // hold what this version would not keep).
    let listings = listings.map(ListingCheck.shown)
    let words = channel.url.dropFirst("exec:".count).split(separator: " ").map(String.init)
    guard let command = words.first else { throw DeliveryError("channel '\(name)': no command") }
    let resolved =
      command.hasPrefix("/") || !command.contains("/")
      ? command : (baseDirectory as NSString).appendingPathComponent(command)
    guard let path = Program.locate(resolved, environment: environment) else {
      throw DeliveryError("channel '\(name)': '\(command)' is not an executable on PATH")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    try await sendEach(
      MessageTemplate.messages(for: listings, search: search, channel: channel), receipt
    ) {
      message in
      let batch =
        channel.grouping == .digest ? listings : listings.filter { $0.url == message.link }
      let first = batch.first
      var env = environment
      env["CLARISSA_SEARCH"] = search.name
      env["CLARISSA_COUNT"] = String(batch.count)
      env["CLARISSA_MESSAGE_TITLE"] = message.title
      env["CLARISSA_TITLE"] = first?.title ?? ""
      env["CLARISSA_URL"] = first?.url ?? ""
      env["CLARISSA_ID"] = first?.id ?? ""
      env["CLARISSA_PRICE"] = first?.price.map { Money.format($0, first?.currency) } ?? ""
      env["CLARISSA_LOCATION"] = first?.location ?? first?.area ?? ""
      let input = try encoder.encode(batch)
      try await Program.run(
        path, Array(words.dropFirst()), input: Array(input), environment: env, timeout: 30,
        channel: name)
    }
  }
}

/// `mailto://me@example.com`: a plain-text mail through the local `sendmail -t`.
struct MailChannel: DeliveryChannel {
  let channel: Channel
  let environment: [String: String]

  var name: String { channel.name }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    // What a site sent reaches a message only through the sanitiser (an older store may
    // hold what this version would not keep).
    let listings = listings.map(ListingCheck.shown)
    var address = String(channel.url.dropFirst("mailto:".count))
    if address.hasPrefix("//") { address.removeFirst(2) }
    let recipients = address.split(separator: "?").first.map(String.init) ?? address
    guard
      let sendmail = Program.locate("sendmail", environment: environment)
        ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/sendmail")
          ? "/usr/sbin/sendmail" : nil)
    else { throw DeliveryError("channel '\(name)': no sendmail installed") }
    try await sendEach(
      MessageTemplate.messages(for: listings, search: search, channel: channel), receipt
    ) {
      message in
      let mail = """
        To: \(recipients)
        Subject: \(NtfyChannel.headerValue(message.title))
        MIME-Version: 1.0
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: 8bit
        X-Mailer: clarissa

        \(message.body)

        """
      try await Program.run(
        sendmail, ["-t", "-i"], input: Array(mail.utf8), environment: environment, timeout: 60,
        channel: name)
    }
  }
}

/// `apprise://<any Apprise URL>`: handed to the `apprise` command (`pip install apprise`).
struct AppriseChannel: DeliveryChannel {
  let channel: Channel
  let environment: [String: String]

  var name: String { channel.name }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    // What a site sent reaches a message only through the sanitiser (an older store may
    // hold what this version would not keep).
    let listings = listings.map(ListingCheck.shown)
    let target = String(channel.url.dropFirst("apprise://".count))
    guard let apprise = Program.locate("apprise", environment: environment) else {
      throw DeliveryError(
        "channel '\(name)': the apprise command is not installed (pip install apprise)")
    }
    try await sendEach(
      MessageTemplate.messages(for: listings, search: search, channel: channel), receipt
    ) {
      message in
      try await Program.run(
        apprise, ["-t", message.title, "-b", message.body, target], input: [],
        environment: environment,
        timeout: 60, channel: name)
    }
  }
}

/// Senders for every channel of a config.
public enum ChannelFactory {
  /// The senders for `config`'s channels (the `stdout` kind is the run's report, not a sender).
  public static func senders(
    for config: Config, fetcher: any Fetcher, environment: [String: String], baseDirectory: String
  ) -> [String: any DeliveryChannel] {
    var senders: [String: any DeliveryChannel] = [:]
    for (name, channel) in config.channels {
      switch channel.kind {
      case .stdout: continue
      case .ntfy: senders[name] = NtfyChannel(channel, fetcher: fetcher)
      case .json: senders[name] = JSONWebhookChannel(channel, fetcher: fetcher)
      case .slack: senders[name] = SlackChannel(channel, fetcher: fetcher)
      case .discord: senders[name] = DiscordChannel(channel, fetcher: fetcher)
      case .exec:
        senders[name] = ExecChannel(
          channel: channel, environment: environment, baseDirectory: baseDirectory)
      case .mailto: senders[name] = MailChannel(channel: channel, environment: environment)
      case .apprise: senders[name] = AppriseChannel(channel: channel, environment: environment)
      case .smtp:
        senders[name] = SMTPChannel(channel, timeout: config.http.timeout.timeInterval)
      }
    }
    return senders
  }

  /// One sender for tests and `notify test`, optionally posting to another endpoint; a mail
  /// server gets `timeout` seconds for a whole mail.
  public static func sender(
    for channel: Channel, fetcher: any Fetcher, environment: [String: String],
    baseDirectory: String,
    endpoint: String? = nil, timeout: Double = 30
  ) -> any DeliveryChannel {
    switch channel.kind {
    case .ntfy: NtfyChannel(channel, fetcher: fetcher, endpoint: endpoint)
    case .json: JSONWebhookChannel(channel, fetcher: fetcher, endpoint: endpoint)
    case .slack: SlackChannel(channel, fetcher: fetcher, endpoint: endpoint)
    case .discord: DiscordChannel(channel, fetcher: fetcher, endpoint: endpoint)
    case .exec:
      ExecChannel(channel: channel, environment: environment, baseDirectory: baseDirectory)
    case .mailto: MailChannel(channel: channel, environment: environment)
    case .apprise: AppriseChannel(channel: channel, environment: environment)
    case .smtp: SMTPChannel(channel, timeout: timeout)
    case .stdout: UnavailableChannel(name: channel.name, kind: channel.kind)
    }
  }
}
