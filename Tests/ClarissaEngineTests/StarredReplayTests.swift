import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import Channels
@testable import ClarissaEngine
@testable import Curl
@testable import ListingStore

/// Starred and hidden listings played through `Fixtures/replay/starred/` (see its README): the
/// real sfbay and seattle RSS captures, then later polls derived from them, through the runner,
/// the messages posted to a JSON webhook on loopback. One listing is starred and one hidden after
/// the first run.
@Suite(.serialized) struct StarredReplayTests {
  static let starred = ListingKey(site: "craigslist", id: "6186664607")
  static let repost = ListingKey(site: "craigslist", id: "6186799999")
  static let hidden = ListingKey(site: "craigslist", id: "5332800255")
  static let hiddenRepost = ListingKey(site: "craigslist", id: "5366999999")

  /// What the runs said and posted, and the store they left.
  struct Played {
    /// Per run, per search: `new <id>`, `repost <id> of <id>`, `<event> <id> <change>`.
    var said: [[String: [String]]] = []
    /// The webhook's messages, in the order posted: `<event> <id>: <title>\n<body>`.
    var posted: [String] = []
    var state = ""
    /// The text report of each run.
    var reports: [String] = []
    /// What `explain` said of each listing of `seattle-every-id` before the second run.
    var explained: [String: String] = [:]
  }

  /// `searches.yaml` of the folder with its channel on `server`, `flats` announcing
  /// `notifyOn`.
  static func config(_ server: LoopbackServer, _ notifyOn: Set<ListingEventKind>) throws
    -> Config
  {
    let yaml = try String(
      contentsOf: Fixtures.root.appendingPathComponent("replay/starred/searches.yaml"),
      encoding: .utf8
    ).replacingOccurrences(
      of: "terminal: stdout", with: "terminal: json://127.0.0.1:\(server.port)/hook")
    var config = try RunnerTests.config(yaml)
    config.searches[0].notifyOn = notifyOn
    return config
  }

  static func play(_ notifyOn: Set<ListingEventKind> = [.new]) async throws -> Played {
    let server = try LoopbackServer { _, _ in .text("{}") }
    let config = try Self.config(server, notifyOn)
    var played = Played(state: RunnerTests.temporaryState())
    let notifier = CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20))
    let channels = ChannelFactory.senders(
      for: config, fetcher: notifier, environment: [:], baseDirectory: "/tmp")
    for step in 0...8 {
      let runner = try RunnerTests.runner(
        config, replay: "starred/\(step)", state: played.state, channels: channels)
      let now = RunnerTests.noon.addingTimeInterval(Double(step) * 3600)
      if step == 1 {
        let explanation = try await runner.explain(search: "seattle-every-id", now: now)
        for entry in explanation.entries { played.explained[entry.listing.id] = entry.status }
      }
      let result = try await runner.run(RunOptions(now: now)).commit()
      played.reports.append(RunReport.text(result, colored: false, timeZone: .gmt))
      var said: [String: [String]] = [:]
      for search in result.searches {
        said[search.name] =
          search.new.map { "new \($0.id)" }
          + search.folded.map { "repost \($0.id) of \($0.repostOf)" }
          + search.changed.map {
            "\($0.event?.kind.rawValue ?? "?") \($0.id) \(Change.describe($0) ?? "")"
          }
      }
      played.said.append(said)
      if step == 0 {
        let store = try ListingStore.open(path: played.state, readOnly: false)
        try store.setMark(.star, on: [starred], at: now)
        try store.setMark(.hide, on: [hidden], at: now)
      }
    }
    played.posted = try server.requests.map { request in
      let payload = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
      let listing = (payload?["listings"] as? [[String: Any]])?.first
      let event = (listing?["event"] as? [String: Any])?["kind"] as? String ?? "new"
      return "\(event) \(listing?["id"] as? String ?? "?"): \(payload?["title"] as? String ?? "")\n"
        + (payload?["body"] as? String ?? "")
    }
    return played
  }

  @Test func aStarredListingIsToldOfEachChangeOnceAndAHiddenRepostNever() async throws {
    let played = try await Self.play()
    let flats = played.said.map { $0["flats"] ?? [] }
    #expect(flats[0].isEmpty, "the first run primes")
    #expect(flats[1] == ["price_drop 6186664607 $4,300 → $4,100 (-5%)"], "no threshold")
    #expect(flats[2] == ["changed 6186664607 description changed"])
    #expect(flats[3].isEmpty, "sfbay failed: not an answer without it")
    #expect(flats[4].isEmpty, "one answer without it")
    #expect(flats[5] == ["gone 6186664607 gone (last at $4,100)"])
    #expect(flats[6] == ["reposted 6186799999 was 6186664607"])
    #expect(flats[7].isEmpty, "each change is told once")
    #expect(flats[8] == ["back 6186664607 back at $4,100"], "seen again after gone")
    // The report names each change, the text change with its diff.
    #expect(played.reports[2].contains("flats: 1 changed\n  changed: description changed\n"))
    #expect(
      played.reports[2].contains(
        "    description: [-Updated-] {+Fully renovated+} 3+ Bedroom, 2.5 Bath, Victorian home. "
          + "{+Pets welcome.+} Beautiful original oak hardwoods, high ceilings …"),
      "\(played.reports[2])")
    #expect(played.reports[5].contains("  gone: gone (last at $4,100)"))
    #expect(played.reports[6].contains("  reposted: was 6186664607"))
    // explain names the hidden repost's verdict.
    #expect(
      played.explained[Self.hiddenRepost.id] == "repost of 5332800255, hidden: never announced")
    #expect(played.explained[Self.hidden.id]?.hasPrefix("seen since") == true)
    // The hidden listing's repost: folded in `flats` (never announced), and in the search
    // that announces every new id, not announced either.
    #expect(played.said.allSatisfy { ($0["seattle-every-id"] ?? []).isEmpty })
    #expect(!flats.joined().contains { $0.contains(Self.hiddenRepost.id) })

    let store = try Stored(played.state).store
    let marks = try store.marks(of: [Self.repost, Self.hiddenRepost])
    #expect(marks[Self.repost]?.starred == true, "the star carries over to the repost")
    #expect(marks[Self.hiddenRepost]?.hidden == true, "the repost of a hidden listing is hidden")
    #expect(
      try store.textChanges(of: Self.starred).map { String($0.oldDescription.prefix(18)) } == [
        "Updated 3+ Bedroom"
      ])

    // Delivered through the deliveries table, once each, with what changed.
    let told = played.posted.filter { $0.contains(Self.starred.id) || $0.contains(Self.repost.id) }
    #expect(
      told.map { String($0.prefix(while: { $0 != ":" })) } == [
        "price_drop 6186664607", "changed 6186664607", "gone 6186664607", "reposted 6186799999",
        "back 6186664607",
      ])
    #expect(told[1].contains("description: [-Updated-] {+Fully renovated+} 3+ Bedroom"))
    #expect(told[1].contains("{+Pets welcome.+}"))
    #expect(told[1].hasPrefix("changed 6186664607: changed: $4,100 · Bright, Spacious"))
    // Each with its context: the star, the earlier price, the market (part C's deal context).
    for message in told {
      #expect(message.contains("\n★ starred\n"), "\(message)")
      #expect(message.contains("\nseen before: $4,300 on "), "\(message)")
      #expect(message.contains("% below the median per ft² of "), "\(message)")
    }
    #expect(told[3].contains("\nreposted 1 time in 1 day\n"))
    #expect(told[3].contains("was 6186664607"))
    #expect(!played.posted.contains { $0.contains(Self.hiddenRepost.id) })
  }

  @Test func notifyOnChangedTellsTextChangesOfEveryListing() async throws {
    let without = try await Self.play([.new])
    #expect(!without.said[2]["flats", default: []].contains { $0.contains("6186664268") })
    let with = try await Self.play([.new, .changed])
    #expect(
      with.said[2]["flats"] == [
        "changed 6186664607 description changed", "changed 6186664268 description changed",
      ])
    #expect(
      with.posted.contains {
        $0.hasPrefix("changed 6186664268") && $0.contains("description: {+Price reduced!+} ")
      })
  }
}
