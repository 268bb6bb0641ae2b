import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Synchronization
import Testing
import WebServer

@testable import ClarissaEngine
@testable import Curl
@testable import ListingStore

/// Paths a server was asked for, from its threads.
final class Paths: Sendable {
  private let list = Mutex<[String]>([])
  var paths: [String] { list.withLock { $0 } }
  func add(_ path: String) { list.withLock { $0.append(path) } }
}

/// A request that starts on a public address is not led into the user's network. No test may
/// reach a public host, so the public side is a loopback server on 127.0.0.2, which these tests'
/// fetcher takes as public (`PrivateNetworks(treatingAsPublic: ["127.0.0.2"])`); everything
/// else, the address curl connects to included, is the production path. The private side is
/// 127.0.0.1, as every other test's server.
@Suite(.serialized) struct RedirectGuardTests {
  static let feed = (try? Fixtures.bytes("http/feed.xml")) ?? []
  static let publicHost = "127.0.0.2"
  static let networks = PrivateNetworks(treatingAsPublic: [publicHost])

  static func fetcher() -> CurlFetcher {
    CurlFetcher(limits: FetchLimits(timeout: 5, maxBytes: 1 << 20), privateNetworks: networks)
  }

  /// A server on the "public" address whose every answer redirects to `target`.
  static func redirector(to target: String) throws -> LoopbackServer {
    try LoopbackServer(address: publicHost) { _, _ in
      .init(status: 302, headers: ["Location": target])
    }
  }

  // MARK: - Which addresses are private

  static let table: [(String, Bool)] = [
    // IPv4: loopback, link-local, private, CGNAT, unspecified, and their edges.
    ("127.0.0.1", true), ("127.255.255.254", true), ("126.255.255.255", false),
    ("128.0.0.0", false), ("169.254.0.1", true), ("169.254.169.254", true),
    ("169.253.255.255", false), ("169.255.0.0", false), ("10.0.0.0", true),
    ("10.255.255.255", true), ("9.255.255.255", false), ("11.0.0.0", false),
    ("172.15.255.255", false), ("172.16.0.0", true), ("172.31.255.255", true),
    ("172.32.0.0", false), ("192.168.0.0", true), ("192.168.255.255", true),
    ("192.167.255.255", false), ("192.169.0.0", false), ("100.63.255.255", false),
    ("100.64.0.0", true), ("100.127.255.255", true), ("100.128.0.0", false),
    ("0.0.0.0", true), ("1.1.1.1", false), ("8.8.8.8", false), ("93.184.216.34", false),
    // IPv6: loopback, unspecified, link-local, unique local, and their edges.
    ("::1", true), ("::", true), ("::2", false), ("[::1]", true), ("fe80::1", true),
    ("fe80::1%eth0", true), ("febf:ffff::1", true), ("fec0::1", false), ("fe7f::1", false),
    ("fc00::1", true), ("fd12:3456:789a::1", true), ("fbff::1", false), ("fe00::1", false),
    ("2001:4860:4860::8888", false), ("2606:4700::1111", false),
    // IPv4-mapped IPv6: as the IPv4 address they carry.
    ("::ffff:127.0.0.1", true), ("::ffff:7f00:1", true), ("::ffff:10.1.2.3", true),
    ("::ffff:169.254.169.254", true), ("::ffff:172.16.0.0", true),
    ("::ffff:172.15.255.255", false), ("::ffff:0.0.0.0", true), ("::ffff:8.8.8.8", false),
  ]

  @Test(arguments: table)
  func addressesAreClassified(address: String, isPrivate: Bool) {
    #expect(PrivateNetworks.standard.contains(address) == isPrivate, "\(address)")
  }

  @Test func textThatIsNoAddressIsNotClassified() {
    for text in ["", "localhost", "example.com", "127.0.0.1.example", "256.0.0.1", "fe80::g"] {
      #expect(PrivateNetworks.standard.contains(text) == nil, "\(text)")
    }
  }

  @Test func onlyTheAddressesATestNamesAreTakenAsPublic() {
    #expect(Self.networks.contains("127.0.0.2") == false)
    #expect(Self.networks.contains("127.0.0.1") == true)
    #expect(Self.networks.contains("127.0.0.3") == true)
  }

  // MARK: - The rule, connection by connection

  @Test func theFirstConnectionDecidesHowTheRequestStarted() {
    var fromPublic = RedirectGuard(networks: .standard, source: "http://feeds.example/a.xml")
    #expect(fromPublic.send(to: "93.184.216.34", for: "http://feeds.example/a.xml") == nil)
    #expect(fromPublic.open("93.184.216.35", for: "http://cdn.example/a.xml") == nil)
    #expect(fromPublic.send(to: "93.184.216.35", for: "http://cdn.example/a.xml") == nil)
    let opened = fromPublic.open("192.168.1.1", for: "http://router.example/")
    #expect(opened?.message.contains("(http://router.example/, address 192.168.1.1)") == true)
    // A reused connection opens nothing: the check before sending catches it.
    let reused = fromPublic.send(to: "::ffff:127.0.0.1", for: "http://[::ffff:127.0.0.1]/")
    #expect(reused?.message.contains("to a private one (http://[::ffff:127.0.0.1]/)") == true)

    var fromPrivate = RedirectGuard(networks: .standard, source: "http://nas.lan/feed.xml")
    #expect(fromPrivate.open("192.168.1.10", for: "http://nas.lan/feed.xml") == nil)
    #expect(fromPrivate.send(to: "192.168.1.10", for: "http://nas.lan/feed.xml") == nil)
    #expect(fromPrivate.send(to: "127.0.0.1", for: "http://127.0.0.1/") == nil)
    #expect(fromPrivate.send(to: "93.184.216.34", for: "http://feeds.example/") == nil)
  }

  // MARK: - Through libcurl

  @Test func aPublicFeedRedirectedToLoopbackIsRefused() async throws {
    let inside = try LoopbackServer { _, _ in .text("secret") }
    let target = inside.base + "/admin"
    let outside = try Self.redirector(to: target)
    let source = outside.base + "/feed.xml"
    let result = await Self.fetcher().fetch(RequestSpec(url: source, mode: "feed"), headers: [:])
    guard case .failure(let error) = result else {
      Issue.record("a redirect from a public address to loopback must be refused")
      return
    }
    #expect(
      error.message
        == "redirected from a public address (\(source)) to a private one (\(target)): refused; "
        + "allow it with 'allow_private_redirects: true' on the search if the feed is on your "
        + "own network")
    #expect(outside.requests.count == 1)
    #expect(inside.requests.isEmpty, "no request reached the private address")
  }

  @Test func aRedirectToANameThatResolvesToLoopbackIsRefused() async throws {
    // `localhost` is a name: only the address curl connects to shows that it is loopback.
    let inside = try LoopbackServer { _, _ in .text("secret") }
    let target = "http://localhost:\(inside.port)/admin"
    let outside = try Self.redirector(to: target)
    let result = await Self.fetcher().fetch(
      RequestSpec(url: outside.base + "/feed.xml", mode: "feed"), headers: [:])
    guard case .failure(let error) = result else {
      Issue.record("a redirect to a name that resolves to loopback must be refused")
      return
    }
    #expect(error.message.contains("to a private one (\(target), address "), "\(error.message)")
    #expect(inside.requests.isEmpty)
  }

  @Test func aRedirectOntoAConnectionAlreadyOpenIsRefused() async throws {
    // A feed on the user's network is asked first and its connection kept (a server that keeps
    // connections alive); the public feed's redirect to it would reuse that connection, which
    // opens no socket: the check before each request is what refuses it.
    let seen = Paths()
    let inside = try HTTPServer(address: "127.0.0.1:0") { request in
      seen.add(request.path)
      return WebResponse(body: Self.feed)
    }
    defer { inside.stop() }
    inside.start()
    let base = "http://127.0.0.1:\(inside.port)"
    let outside = try Self.redirector(to: base + "/admin")
    let fetcher = Self.fetcher()
    _ = try await fetcher.fetch(RequestSpec(url: base + "/feed.xml", mode: "feed"), headers: [:])
      .get()
    #expect(inside.activeConnections == 1, "the connection is kept")
    let result = await fetcher.fetch(
      RequestSpec(url: outside.base + "/feed.xml", mode: "feed"), headers: [:])
    guard case .failure(let error) = result else {
      Issue.record("a redirect onto a kept private connection must be refused")
      return
    }
    #expect(error.message.contains("to a private one (\(base)/admin): refused"))
    #expect(seen.paths == ["/feed.xml"], "nothing was asked of /admin")
  }

  @Test func theRequestMayGoThereWhenTheSearchAllowsIt() async throws {
    let inside = try LoopbackServer { _, _ in .init(body: Self.feed) }
    let outside = try Self.redirector(to: inside.base + "/feed.xml")
    var request = RequestSpec(url: outside.base + "/feed.xml", mode: "feed")
    request.allowsPrivateRedirects = true
    let response = try await Self.fetcher().fetch(request, headers: [:]).get()
    #expect(response.status == 200)
    #expect(response.body == Self.feed)
    #expect(response.finalURL == inside.base + "/feed.xml")
  }

  @Test func redirectsWithinPrivateSpaceAreFollowed() async throws {
    // Both ends private (127.0.0.1 -> 127.0.0.2, which the standard ranges hold).
    let second = try LoopbackServer(address: Self.publicHost) { _, _ in .init(body: Self.feed) }
    let first = try LoopbackServer { _, _ in
      .init(status: 301, headers: ["Location": second.base + "/feed.xml"])
    }
    let fetcher = CurlFetcher(limits: FetchLimits(timeout: 5, maxBytes: 1 << 20))
    let response = try await fetcher.fetch(
      RequestSpec(url: first.base + "/old", mode: "feed"), headers: [:]
    ).get()
    #expect(response.body == Self.feed)
    #expect(response.finalURL == second.base + "/feed.xml")
  }

  @Test func aRedirectFromPublicToPublicIsFollowed() async throws {
    let end = try LoopbackServer(address: Self.publicHost) { request, _ in
      request.path == "/old"
        ? .init(status: 302, headers: ["Location": "/feed.xml"]) : .init(body: Self.feed)
    }
    let response = try await Self.fetcher().fetch(
      RequestSpec(url: end.base + "/old", mode: "feed"), headers: [:]
    ).get()
    #expect(response.body == Self.feed)
  }

  // MARK: - From the config to the request

  static func config(_ feed: String, _ extra: String = "") throws -> Config {
    let yaml = """
      version: 1
      searches:
        - name: outside
          site: feed
          feeds: [\(feed)]
      \(extra)
      """
    let result = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "guard.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    return try #require(
      result.config, "\(DiagnosticRenderer(sources: result.sources).render(result.diagnostics))")
  }

  static func run(_ config: Config) async throws -> RunResult {
    var settings = SchedulerSettings(blockCooldown: 3600, userAgent: "clarissa-test/1")
    settings.delayOverride = 0
    let state = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-guard-\(UUID().uuidString)/clarissa.db"
    ).path
    let runner = Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: fetcher(), settings: settings), statePath: state)
    return try await runner.run(RunOptions(now: Date(), notifyFirstRun: true)).commit()
  }

  @Test func aRunReportsTheRefusalAsTheSourcesFailure() async throws {
    let inside = try LoopbackServer { _, _ in .init(body: Self.feed) }
    let outside = try Self.redirector(to: inside.base + "/feed.xml")
    let source = outside.base + "/feed.xml"
    let result = try await Self.run(try Self.config(source))
    let failure = try #require(result.searches.first?.failures.first)
    #expect(failure.hasPrefix("\(source): redirected from a public address (\(source))"))
    #expect(failure.contains("to a private one (\(inside.base)/feed.xml): refused"))
    #expect(inside.requests.isEmpty)
  }

  @Test func aRunFollowsTheRedirectWhenTheSearchAllowsIt() async throws {
    let inside = try LoopbackServer { _, _ in .init(body: Self.feed) }
    let outside = try Self.redirector(to: inside.base + "/feed.xml")
    let config = try Self.config(outside.base + "/feed.xml", "    allow_private_redirects: true")
    #expect(config.searches.first?.allowPrivateRedirects == true)
    let result = try await Self.run(config)
    #expect(result.searches.first?.failures == [])
    #expect(result.searches.first?.new.isEmpty == false)
    #expect(inside.requests.count == 1)
  }
}
