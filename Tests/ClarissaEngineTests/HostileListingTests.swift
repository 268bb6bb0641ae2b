import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

@testable import Channels
@testable import ClarissaEngine
@testable import Curl
@testable import ListingStore

/// Listings an attacker (or a broken feed) would send: escape sequences for the terminal,
/// mass mentions for a chat, a 7.9 MiB title, 5,000 new ids on every answer.
@Suite(.serialized) struct HostileListingTests {
  /// The terminal's escape sequences, and text for a chat's mass mention and markup.
  static let hostile = "Cheap " + HostileText.escapes + "free @everyone <!channel>"

  static func jsonFeed(_ items: [(id: String, title: String)]) -> [UInt8] {
    let entries = items.map { item in
      [
        "id": item.id, "url": "https://feeds.example.org/\(item.id)", "title": item.title,
        "content_text": Self.hostile,
      ]
    }
    let feed: [String: Any] = [
      "version": "https://jsonfeed.org/version/1.1", "title": "hostile", "items": entries,
    ]
    return Array((try? JSONSerialization.data(withJSONObject: feed)) ?? Data())
  }

  @Test func safeTextRemovesEveryControlCharacter() {
    let line = SafeText.line(Self.hostile)
    #expect(!HostileText.hasControl(line))
    #expect(!line.contains("\n") && !line.contains("\r"))
    #expect(line.hasPrefix("Cheap ") && line.hasSuffix("free @everyone <!channel>"))
    #expect(SafeText.lines("one\r\ntwo\rthree\n\tfour\u{1B}") == "one\ntwo\nthree\n\tfour")
    #expect(SafeText.line("one\r\ntwo\tthree") == "one two three")
    let clean = "Fahrrad, 2 Zimmer, 45 m² — 450 €"
    #expect(SafeText.line(clean) == clean)
    #expect(!SafeText.needsCleaning(clean, multiline: false))
    // Invalid UTF-8 never reaches it as such: decoding replaces it.
    let decoded = String(decoding: [0x41, 0xFF, 0xC3, 0x28, 0x1B, 0x42] as [UInt8], as: UTF8.self)
    #expect(SafeText.line(decoded) == "A\u{FFFD}\u{FFFD}(B")
  }

  @Test func aListingIsBoundedAndItsNumbersChecked() {
    let title = String(repeating: "Fahrrad ", count: 1_035_000)  // 7.9 MiB
    let listing = Listing(
      id: "x\u{1B}", site: "feed", url: "https://e.example/\u{07}x", title: title,
      description: String(repeating: "d", count: 20_000), price: .nan,
      posted: Date(timeIntervalSince1970: 1e300), location: String(repeating: "Ort ", count: 100),
      coordinates: Coordinates(latitude: 95, longitude: .infinity))
    let (checked, cut) = ListingCheck.checked(listing, limits: Limits())
    #expect(checked.title.count == 300 && checked.title.hasSuffix("…"))
    #expect(checked.description.count == 10_000)
    #expect(checked.location?.count == 200)
    #expect(cut == ["title", "description", "place"])
    #expect(checked.id == "x" && checked.url == "https://e.example/x")
    #expect(checked.price == nil && checked.posted == nil && checked.coordinates == nil)
    var readCap = Limits()
    readCap.itemsPerSource = 2_000
    let (many, notes) = ListingCheck.answer(
      (0..<2_500).map { Listing(id: "\($0)", site: "feed", url: "u", title: "t") },
      limits: readCap)
    #expect(many.count == 2_000)
    #expect(
      notes == [
        "the answer held 2,500 listings; the first 2,000 were read (limits.items_per_source)"
      ])
  }

  @Test func aHugeTitleIsStoredCutAndSaidSo() async throws {
    let title = String(repeating: "Fahrrad ", count: 1_035_000)
    let feed = try LoopbackServer { _, _ in .init(body: Self.jsonFeed([("big", title)])) }
    let yaml = """
      version: 1
      searches:
        - name: big
          site: feed
          feeds: [\(feed.base)/feed.json]
      """
    let config = try RunnerTests.config(yaml)
    let state = RunnerLoopbackTests.state()
    var settings = SchedulerSettings(userAgent: "clarissa-test/1")
    settings.delayOverride = 0
    // The default response bound (8 MiB) holds the 7.9 MiB title.
    let fetcher = CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 8 << 20))
    let runner = Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: fetcher, settings: settings), statePath: state)
    let result = try await runner.run(RunOptions(notifyFirstRun: true)).commit()
    let listing = try #require(result.searches[0].new.first, "\(result.searches[0].failures)")
    #expect(listing.title.count == 300)
    #expect(result.searches[0].notes.contains { $0.contains("1 listing's title cut to the limit") })
    let stored = try ListingStore.open(path: state, readOnly: true)
    let history = try #require(try stored.history(listing.key))
    #expect(history.listing.title == listing.title)
  }

  /// Every channel kind with a receiver here: what it is sent holds no control character, no
  /// live mass mention, and escapes its format's markup.
  @Test func everyChannelsBodyIsClean() async throws {
    let listing = Listing(
      id: "h1", site: "feed", url: "https://feeds.example.org/h1?a=1|b>c", title: Self.hostile,
      description: Self.hostile, price: 10, currency: "USD", location: Self.hostile)
    let search = Search(name: "bikes", site: "feed")
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    var bodies: [String: String] = [:]
    for (name, url) in [
      ("ntfy", "ntfy://127.0.0.1:\(receiver.port)/deals"),
      ("json", "json://127.0.0.1:\(receiver.port)/hook"),
      ("slack", "slack://T000/B000/XXXX"), ("discord", "discord://1234/abcd"),
    ] {
      let before = receiver.requests.count
      let channel = ChannelTests.channel(url)
      let endpoint = name == "slack" || name == "discord" ? receiver.base + "/\(name)" : nil
      try await ChannelTests.sender(channel, endpoint: endpoint).deliver([listing], search: search)
      let request = try #require(receiver.requests.dropFirst(before).first)
      let headers = request.headers.values.joined(separator: "\n")
      #expect(!HostileText.hasControl(headers), "\(name) headers")
      // JSON escapes control characters as \u001b: read the strings as the receiver does.
      let decoded =
        (try? JSONSerialization.jsonObject(with: Data(request.text.utf8))).map { "\($0)" }
        ?? request.text
      #expect(!HostileText.hasControl(decoded), "\(name): \(decoded.prefix(200))")
      bodies[name] = request.text
    }
    let discordBody = Data((bodies["discord"] ?? "").utf8)
    let discord = try #require(
      try JSONSerialization.jsonObject(with: discordBody) as? [String: Any])
    #expect((discord["allowed_mentions"] as? [String: Any])?["parse"] as? [String] == [])
    #expect(
      DiscordChannel.escape("[free](x) **big** see https://e.example/a_b")
        == "\\[free\\]\\(x\\) \\*\\*big\\*\\* see https://e.example/a_b")
    let slack = bodies["slack"] ?? ""
    #expect(!slack.contains("<!channel>") && slack.contains("&lt;!channel&gt;"))
    #expect(slack.contains("a=1%7Cb&gt;c|"), "the link cannot end early: \(slack)")
    // exec: the listing as JSON on standard input.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("read.sh")
    let output = folder.appendingPathComponent("in.json")
    try "#!/bin/sh\ncat > '\(output.path)'\n".write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let exec = Channel(name: "script", kind: .exec, url: "exec:\(script.path)")
    try await ChannelTests.sender(exec).deliver([listing], search: search)
    let sent = try Data(contentsOf: output)
    let object = try JSONSerialization.jsonObject(with: sent)
    #expect(!HostileText.hasControl("\(object)"))
    // Mail: the message as sendmail would get it.
    let mailChannel = Channel(name: "m", kind: .mailto, url: "mailto://me@example.com")
    let (message, carried) = try #require(
      MessageTemplate.messages(for: [listing], search: search, channel: mailChannel).first)
    let raw = MailMessage.build(
      message, listings: carried, from: "clarissa@localhost", to: ["me@example.com"])
    // The parts are base64: decode each to read what the mail reader shows.
    let mail = String(decoding: raw, as: UTF8.self)
    let parts = mail.components(separatedBy: "\r\n\r\n").dropFirst().compactMap { part in
      Data(
        base64Encoded: part.components(separatedBy: "\r\n--").first?
          .replacingOccurrences(of: "\r\n", with: "") ?? "")
    }.map { String(decoding: $0, as: UTF8.self) }
    #expect(parts.count >= 2, "the text and HTML parts were read")
    for part in parts { #expect(!HostileText.hasControl(part)) }
    #expect(!HostileText.hasControl(mail.replacingOccurrences(of: "\r\n", with: "\n")))
  }

  @Test func fiveThousandNewListingsAreAnnouncedWithinTheLimitAndOneSummary() async throws {
    let receiver = try LoopbackServer { _, _ in .init(status: 200) }
    let round = Counter(0)
    let feed = try LoopbackServer { _, _ in
      let prefix = "r\(round.value)-"
      return .init(body: Self.jsonFeed((0..<5_000).map { ("\(prefix)\($0)", "Bike \($0)") }))
    }
    let yaml = """
      version: 1
      notify:
        hook: json://127.0.0.1:\(receiver.port)/hook
      searches:
        - name: bikes
          site: feed
          feeds: [\(feed.base)/feed.json]
          notify: [hook]
      """
    let config = try RunnerTests.config(yaml)
    let (runner, _) = try FaultTests.runner(yaml)
    let delivering = runner.delivering(to: config)
    let now = Date()
    let first = try await delivering.run(RunOptions(now: now, notifyFirstRun: true)).commit()
    #expect(first.searches[0].new.count == 2_000, "the first 2,000 new (limits.new_per_answer)")
    #expect(receiver.requests.count == 50, "49 listings and one summary")
    let summary = try #require(receiver.requests.last?.text)
    #expect(summary.contains("and 1,951 more new in 'bikes'"))
    #expect(
      first.searches[0].notes.contains { $0.contains("hook: 1,951 more summed up in one message") })
    #expect(
      first.searches[0].notes.contains {
        $0.contains("3,000 more new listings than limits.new_per_answer (2,000) left for the next")
      }, "\(first.searches[0].notes)")
    // The flood's rest is not lost: the next two runs take 2,000, then 1,000, each id once.
    var announced = Set(first.searches[0].new.map(\.id))
    for (hour, expected) in [(1, 2_000), (2, 1_000)] {
      let next = try await delivering.run(
        RunOptions(now: now.addingTimeInterval(3600 * Double(hour)))
      )
      .commit()
      let ids = next.searches[0].new.map(\.id)
      #expect(ids.count == expected, "run \(hour + 1): \(next.searches[0].notes)")
      #expect(announced.isDisjoint(with: ids), "never twice")
      announced.formUnion(ids)
    }
    #expect(announced == Set((0..<5_000).map { "r0-\($0)" }), "every one of the 5,000")
    // The feed renews every id: nothing is announced, and the run says why once.
    round.value = 1
    let renewed = try await delivering.run(RunOptions(now: now.addingTimeInterval(4 * 3600)))
      .commit()
    #expect(renewed.searches[0].new.isEmpty)
    #expect(
      renewed.searches[0].notes.contains {
        $0.contains("all 5,000 ids changed since the last answer: the feed's ids are not stable")
      }, "\(renewed.searches[0].notes)")
    // Nothing owed is left behind: a run with the same answer sends nothing.
    let sent = receiver.requests.count
    let last = try await delivering.run(RunOptions(now: now.addingTimeInterval(5 * 3600))).commit()
    #expect(receiver.requests.count == sent)
    #expect(last.deliveryFailures.isEmpty)
  }

  /// A listing at the end of a 20,001-item feed is announced (the read bound was 2,000 items),
  /// and whatever bound bites is said in the text and Markdown reports, not only in JSON.
  @Test func aListingAtTheEndOfALongFeedIsAnnounced() async throws {
    let items = Counter(20_000)
    let feed = try LoopbackServer { _, _ in
      .init(body: Self.jsonFeed((0..<items.value).map { ("i\($0)", "Bike \($0)") }))
    }
    let yaml = """
      version: 1
      searches:
        - name: bikes
          site: feed
          feeds: [\(feed.base)/feed.json]
      """
    let (runner, _) = try FaultTests.runner(yaml)
    let now = Date()
    let first = try await runner.run(RunOptions(now: now)).commit()
    #expect(first.searches[0].primed == 20_000)
    items.value = 20_001
    let second = try await runner.run(RunOptions(now: now.addingTimeInterval(3600))).commit()
    #expect(second.searches[0].new.map(\.id) == ["i20000"], "\(second.searches[0].notes)")
    // A read bound that bites is in every report.
    var outcome = second.searches[0]
    outcome.notes = ["feed.json: the answer held 20,001 listings; the first 20,000 were read"]
    var result = second
    result.searches = [outcome]
    let text = RunReport.text(result, colored: false)
    #expect(text.contains("bikes: note: feed.json: the answer held 20,001 listings"), "\(text)")
    let markdown = RunReport.markdown(result)
    #expect(
      markdown.contains("- _Note:_ feed.json: the answer held 20,001 listings"), "\(markdown)")
  }
}
