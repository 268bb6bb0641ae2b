import Channels
import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import Curl
import FixtureSupport
import Foundation
import ListingStore
import Sites
import Synchronization
import Testing

/// Every sender against a real receiver: a loopback HTTP server for ntfy, JSON webhooks, Slack and
/// Discord; real scripts for `exec:` and `mailto:`; the apprise command when it is installed.
@Suite(.serialized) struct ChannelTests {
  static let search = Search(name: "chairs", site: "craigslist")
  static let listings = [
    Listing(
      id: "1", site: "craigslist", url: "https://sfbay.craigslist.org/sfc/fuo/d/aeron/1.html",
      title: "Aeron chair <size B> & more", price: 450, currency: "USD",
      posted: Date().addingTimeInterval(-600),
      location: "SOMA"),
    Listing(
      id: "2", site: "craigslist", url: "https://sfbay.craigslist.org/eby/fuo/d/embody/2.html",
      title: "Embody chair", description: String(repeating: "long text ", count: 500), price: 900,
      currency: "USD", location: "Oakland"),
  ]

  static func fetcher(timeout: Double = 5) -> CurlFetcher {
    CurlFetcher(limits: FetchLimits(timeout: timeout, maxBytes: 1 << 20))
  }

  static func channel(
    _ url: String, digest: Bool = false, title: String? = nil, body: String? = nil
  ) -> Channel {
    var channel = Channel(
      name: "test", kind: .json, url: url, grouping: digest ? .digest : .each, titleTemplate: title,
      bodyTemplate: body)
    if case .success(let kind) = Result(catching: { try kindOf(url) }) { channel.kind = kind }
    return channel
  }

  static func kindOf(_ url: String) throws -> Channel.Kind {
    let yaml =
      "version: 1\nnotify:\n  c: '\(url)'\nsearches:\n  - name: s\n    cities: [sfbay]\n    notify: [c]\n"
    let result = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "k.yaml", environment: ["PATH": "/usr/bin:/bin"],
      sites: Registry.sites, channels: ChannelRegistry.all)
    return try #require(result.config?.channels["c"]?.kind)
  }

  static func sender(
    _ channel: Channel, endpoint: String? = nil, environment: [String: String] = [:]
  ) -> any DeliveryChannel {
    ChannelFactory.sender(
      for: channel, fetcher: fetcher(), environment: environment, baseDirectory: "/",
      endpoint: endpoint)
  }

  @Test func ntfyPostsEachListingWithTitlePriorityAndClick() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    let channel = Self.channel("ntfy://127.0.0.1:\(receiver.port)/deals?priority=high&tags=chair")
    #expect(channel.kind == .ntfy)
    try await Self.sender(channel).deliver(Self.listings, search: Self.search)
    let requests = receiver.requests
    #expect(requests.count == 2)
    #expect(requests[0].method == "POST" && requests[0].path == "/deals")
    #expect(
      requests[0].headers["title"] == "$450 · Aeron chair <size B> & more"
        || requests[0].headers["title"]?.hasPrefix("=?UTF-8?B?") == true)
    #expect(requests[0].headers["priority"] == "high")
    #expect(requests[0].headers["tags"] == "chair")
    #expect(requests[0].headers["click"] == Self.listings[0].url)
    #expect(requests[0].text.contains(Self.listings[0].url))
    #expect(requests[1].body.count <= 4096)
  }

  @Test func jsonWebhookBodyFollowsTheDocumentedSchema() async throws {
    let receiver = try LoopbackServer { _, _ in .init(status: 204) }
    let channel = Self.channel("json://127.0.0.1:\(receiver.port)/hook", digest: true)
    try await Self.sender(channel).deliver(Self.listings, search: Self.search)
    let request = try #require(receiver.requests.first)
    #expect(receiver.requests.count == 1, "a digest is one message")
    #expect(request.headers["content-type"] == "application/json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
    #expect(object["version"] as? Int == 1)
    #expect(object["search"] as? String == "chairs")
    #expect(object["title"] as? String == "2 new for chairs")
    #expect((object["listings"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1", "2"])
  }

  @Test func slackFormatEscapesAndLinks() async throws {
    let receiver = try LoopbackServer { _, _ in .text("ok") }
    let channel = Self.channel("slack://T000/B000/XXXX/#deals")
    #expect(channel.kind == .slack)
    try await Self.sender(channel, endpoint: receiver.base + "/services/T000/B000/XXXX").deliver(
      [Self.listings[0]], search: Self.search)
    let request = try #require(receiver.requests.first)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
    #expect(object["channel"] == "#deals")
    #expect(
      object["text"]?.contains(
        "<\(Self.listings[0].url)|$450 · Aeron chair &lt;size B&gt; &amp; more>") == true)
  }

  @Test func discordKeepsWithinTwoThousandCharacters() async throws {
    let receiver = try LoopbackServer { _, _ in .init(status: 204) }
    let channel = Self.channel("discord://1234/abcd", body: "{description}")
    #expect(channel.kind == .discord)
    try await Self.sender(channel, endpoint: receiver.base + "/api/webhooks/1234/abcd").deliver(
      [Self.listings[1]], search: Self.search)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(receiver.requests[0].body)) as? [String: Any])
    let content = try #require(object["content"] as? String)
    #expect(content.count <= 2000)
    #expect(content.hasPrefix("**$900 · Embody chair**"))
    #expect(content.hasSuffix("…"))
  }

  @Test func aFailingReceiverIsARefusalNamingTheChannel() async throws {
    let receiver = try LoopbackServer { _, count in
      count == 0
        ? .init(status: 200)
        : .text("<html>\n<body>\n  <h1>Error</h1>\n  <p>boom</p>\n</body></html>", status: 500)
    }
    let channel = Self.channel("json://127.0.0.1:\(receiver.port)/hook")
    let received = Received()
    do {
      try await Self.sender(channel).deliver(Self.listings, search: Self.search) {
        received.add($0)
      }
      Issue.record("a 500 must be a refusal")
    } catch let error as DeliveryError {
      #expect(error.message.hasSuffix("HTTP 500 (Error boom)"), "one line, tags dropped")
      #expect(received.ids == [["1"]], "the first message went through before the failure")
    }
  }

  @Test func aReceiverThatNeverAnswersTimesOut() async throws {
    let receiver = try LoopbackServer { _, _ in .init(hang: true) }
    let channel = Self.channel("json://127.0.0.1:\(receiver.port)/hook")
    let sender = ChannelFactory.sender(
      for: channel, fetcher: Self.fetcher(timeout: 1), environment: [:], baseDirectory: "/")
    await #expect(throws: DeliveryError.self) {
      try await sender.deliver([Self.listings[0]], search: Self.search)
    }
  }

  @Test func execRunsARealScriptWithJSONOnStdinAndFieldsInTheEnvironment() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "exec-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("on-listing.sh")
    let out = folder.appendingPathComponent("out.txt")
    try
      "#!/bin/sh\ncat > \(out.path).json\necho \"$CLARISSA_SEARCH|$CLARISSA_COUNT|$CLARISSA_TITLE|$CLARISSA_PRICE|$CLARISSA_URL\" >> \(out.path)\n"
      .write(to: script, atomically: true, encoding: .utf8)
    chmod(script.path, 0o755)
    let channel = Channel(name: "script", kind: .exec, url: "exec:\(script.path)")
    try await Self.sender(channel, environment: ["PATH": "/usr/bin:/bin"]).deliver(
      Self.listings, search: Self.search)
    let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0] == "chairs|1|Aeron chair <size B> & more|$450|\(Self.listings[0].url)")
    let json =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: out.path + ".json"))) as? [[String: Any]]
    #expect(json?.first?["id"] as? String == "2", "the last message's listing")
  }

  @Test func execFailureIsARefusal() async throws {
    let failing = Channel(name: "script", kind: .exec, url: "exec:/bin/false")
    await #expect(throws: DeliveryError.self) {
      try await Self.sender(failing, environment: ["PATH": "/usr/bin:/bin"]).deliver(
        [Self.listings[0]], search: Self.search)
    }
  }

  @Test func execFailureSaysWhatTheProgramSaidOnOneLine() async throws {
    let script = FileManager.default.temporaryDirectory.appendingPathComponent(
      "exec-fail-\(UUID().uuidString)")
    try "#!/bin/sh\nprintf 'first problem\\n  second\\n' >&2\nexit 3\n".write(
      to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let failing = Channel(name: "script", kind: .exec, url: "exec:\(script.path)")
    do {
      try await Self.sender(failing, environment: ["PATH": "/usr/bin:/bin"]).deliver(
        [Self.listings[0]], search: Self.search)
      Issue.record("exit status 3 must be a refusal")
    } catch let error as DeliveryError {
      #expect(error.message.hasSuffix("exited with status 3: first problem second"))
    }
  }

  @Test func aRunWhoseReceiverFailsDeliversOnALaterRunExactlyOnce() async throws {
    let healthy = Flag()
    let receiver = try LoopbackServer { request, _ in
      healthy.value
        ? .init(status: 200)
        : (request.path == "/slow" ? .init(hang: true) : .text("down", status: 500))
    }
    let yaml = """
      version: 1
      notify:
        hook: json://127.0.0.1:\(receiver.port)/hook
      searches:
        - name: ipads
          query: ipad
          category: sss
          cities: [sfbay]
          price: {min: 20, max: 400}
          notify: [hook]
      """
    let config = try RunnerTests.config(yaml)
    let state = RunnerTests.temporaryState()
    func runner(_ replay: String) throws -> Runner {
      let senders = ChannelFactory.senders(
        for: config, fetcher: Self.fetcher(timeout: 2), environment: [:], baseDirectory: "/")
      return try RunnerTests.runner(config, replay: replay, state: state, channels: senders)
    }
    let noon = ISO8601DateFormatter().date(from: "2026-05-03T19:00:00Z") ?? Date()
    _ = try await runner("default").run(RunOptions(now: noon)).commit()
    let failed = try await runner("next").run(RunOptions(now: noon.addingTimeInterval(3600)))
      .commit()
    #expect(failed.deliveryFailures.first?.contains("HTTP 500") == true)
    #expect(receiver.requests.count == 1)
    healthy.value = true
    let later = try await runner("next").run(RunOptions(now: noon.addingTimeInterval(7200)))
      .commit()
    #expect(later.deliveryFailures.isEmpty)
    #expect(later.searches.first?.delivered.map(\.id) == ["7931742798"])
    let posts = receiver.requests.filter { $0.text.contains("7931742798") }
    #expect(posts.count == 2, "one refused, one accepted")
    _ = try await runner("next").run(RunOptions(now: noon.addingTimeInterval(9000))).commit()
    #expect(receiver.requests.filter { $0.text.contains("7931742798") }.count == 2, "never again")
  }

  @Test func mailGoesThroughSendmail() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mail-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let sendmail = folder.appendingPathComponent("sendmail")
    let spool = folder.appendingPathComponent("spool.txt")
    try "#!/bin/sh\necho \"args: $*\" >> \(spool.path)\ncat >> \(spool.path)\n".write(
      to: sendmail, atomically: true, encoding: .utf8)
    chmod(sendmail.path, 0o755)
    let channel = Channel(
      name: "mail", kind: .mailto, url: "mailto://me@example.com", grouping: .digest)
    try await Self.sender(channel, environment: ["PATH": folder.path + ":/usr/bin:/bin"]).deliver(
      Self.listings, search: Self.search)
    let mail = try String(contentsOf: spool, encoding: .utf8)
    #expect(mail.contains("args: -t -i"))
    #expect(mail.contains("To: me@example.com"))
    #expect(mail.contains("Subject: 2 new for chairs"))
    #expect(mail.contains(Self.listings[1].url))
  }

  static var appriseInstalled: Bool { TestTools.path("apprise") != nil || TestTools.underCI }

  @Test(.enabled(if: appriseInstalled, "the apprise command is not installed"))
  func appriseCLIPostsToTheLoopbackReceiver() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    let channel = Channel(
      name: "apprise", kind: .apprise, url: "apprise://json://127.0.0.1:\(receiver.port)/apprise")
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = TestTools.venvBin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    try await Self.sender(channel, environment: environment).deliver(
      [Self.listings[0]], search: Self.search)
    let request = try #require(receiver.requests.first)
    #expect(request.path == "/apprise")
    #expect(request.text.contains("Aeron chair"))
  }
}

/// A thread-safe switch for receivers.
final class Flag: Sendable {
  private let state = Mutex(false)
  var value: Bool {
    get { state.withLock { $0 } }
    set { state.withLock { $0 = newValue } }
  }
}
