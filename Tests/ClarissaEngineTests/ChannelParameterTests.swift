import Channels
import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import Curl
import FixtureSupport
import Foundation
import ListingStore
import Sites
import Testing

/// ntfy's photo, body type and tokens; `+Header` parameters; unknown parameters; TLS spoken to a
/// plain HTTP server. Against the loopback receiver.
@Suite(.serialized) struct ChannelParameterTests {
  static let search = Search(name: "chairs", site: "craigslist")
  static let listing = Listing(
    id: "1", site: "craigslist", url: "https://sfbay.craigslist.org/sfc/fuo/d/aeron/1.html",
    title: "Aeron chair", price: 450, currency: "USD", location: "SOMA",
    imageURLs: ["https://images.craigslist.org/00a0a_aeron_600x450.jpg"])

  static func load(_ url: String, environment: [String: String] = [:]) -> ConfigLoadResult {
    let yaml = """
      version: 1
      notify:
        c: '\(url)'
      searches:
        - name: s
          cities: [sfbay]
          notify: [c]
      """
    return ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "p.yaml", environment: environment, sites: Registry.sites,
      channels: ChannelRegistry.all)
  }

  static func channel(_ url: String, environment: [String: String] = [:]) throws -> Channel {
    let result = load(url, environment: environment)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
    return try #require(result.config?.channels["c"])
  }

  static func send(_ channel: Channel, _ listings: [Listing]) async throws {
    try await ChannelFactory.sender(
      for: channel, fetcher: CurlFetcher(limits: FetchLimits(timeout: 5, maxBytes: 1 << 20)),
      environment: [:], baseDirectory: "/"
    ).deliver(listings, search: search)
  }

  @Test func ntfyAttachesThePhotoAsPlainTextWithAnAccessToken() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    let channel = try Self.channel(
      "ntfy://${NTFY_TOKEN}@127.0.0.1:\(receiver.port)/deals?+X-Trace=${TRACE}",
      environment: ["NTFY_TOKEN": "tk_0123456789abcdef", "TRACE": "t-42"])
    try await Self.send(channel, [Self.listing])
    let request = try #require(receiver.requests.first)
    #expect(request.path == "/deals", "the header parameter is not in the topic URL")
    #expect(request.headers["authorization"] == "Bearer tk_0123456789abcdef")
    #expect(request.headers["attach"] == Self.listing.imageURLs[0])
    #expect(request.headers["content-type"] == "text/plain; charset=utf-8")
    #expect(request.headers["x-trace"] == "t-42")
    #expect(!channel.redactedURL.contains("tk_0123") && !channel.redactedURL.contains("t-42"))
    #expect(channel.redactedURL.hasSuffix("/deals?+X-Trace=***"))
  }

  @Test func aBareNtfyUserThatIsNoTokenIsAWarning() {
    let result = Self.load("ntfys://phil@ntfy.example.com/deals")
    #expect(result.config != nil)
    #expect(
      result.diagnostics.first?.message
        == "'phil@' is sent as an ntfy access token, and those start with 'tk_'; for a login write 'user:password@' (channel 'c')"
    )
  }

  @Test func ntfyUserAndPasswordStayBasic() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    let channel = try Self.channel("ntfy://phil:pw@127.0.0.1:\(receiver.port)/deals")
    try await Self.send(channel, [Self.listing])
    let expected = "Basic " + Data("phil:pw".utf8).base64EncodedString()
    #expect(receiver.requests.first?.headers["authorization"] == expected)
  }

  @Test func jsonWebhookSendsHeaderParametersAndKeepsTheOthersInItsURL() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    let channel = try Self.channel(
      "json://127.0.0.1:\(receiver.port)/hook?key=1&+Authorization=Bearer%20xyz")
    try await Self.send(channel, [Self.listing])
    let request = try #require(receiver.requests.first)
    #expect(request.path == "/hook?key=1")
    #expect(request.headers["authorization"] == "Bearer xyz")
    #expect(request.headers["content-type"] == "application/json")
    #expect(!channel.redactedURL.contains("xyz"))
  }

  @Test func unknownParametersAreLocatedWarningsWithDidYouMean() throws {
    let ntfy = Self.load("ntfy://ntfy.sh/deals?priorty=high")
    let warning = try #require(ntfy.diagnostics.first)
    #expect(warning.severity == .warning)
    #expect(
      warning.message
        == "unknown parameter 'priorty' for ntfy; did you mean 'priority'? (known: priority, tags, click, buttons); for a header write '+Name=value'; it is ignored (channel 'c')"
    )
    #expect(warning.location?.line == 3 && warning.location?.column == 28)
    #expect(ntfy.config != nil, "a warning, not an error")
    let mail = Self.load("smtp://mail.example.com?to=me@example.com&form=a@example.com")
    #expect(mail.diagnostics.first?.message.contains("did you mean 'from'?") == true)
    let bad = Self.load("ntfy://ntfy.sh/deals?+Bad%20Header=1")
    #expect(bad.diagnostics.first?.severity == .error)
    #expect(bad.diagnostics.first?.message.contains("is not a header name") == true)
  }

  @Test func smtpURLsAreCheckedWithClearMessages() {
    let cases = [
      ("smtp://mail.example.com", "an SMTP URL needs a recipient: add '?to=me@example.com'"),
      (
        "smtp://mail.example.com?to=me@example.com,nobody",
        "'nobody' in 'to=' is not a mail address"
      ),
      (
        "smtp://mail.example.com?to=me@example.com&from=me", "'me' in 'from=' is not a mail address"
      ),
      ("smtp://mail.example.com?to=me@example.com&tls=off", "'tls=off' is not 'starttls'"),
      ("smtps://mail.example.com?to=me@example.com&tls=none", "'smtps://' is TLS from the start"),
    ]
    for (url, message) in cases {
      let result = Self.load(url)
      #expect(result.config == nil, "\(url)")
      #expect(result.diagnostics.first?.message.contains(message) == true, "\(url)")
    }
  }

  @Test func anHTTPSNtfyURLSuggestsNtfys() {
    let result = Self.load("https://ntfy.sh/my-topic")
    #expect(
      result.diagnostics.first?.message
        == "a plain web URL does not say how to post; for this ntfy topic write 'ntfys://ntfy.sh/my-topic' (channel 'c')"
    )
    let own = Self.load("http://ntfy.example.com:8080/alerts")
    #expect(
      own.diagnostics.first?.message.contains("'ntfy://ntfy.example.com:8080/alerts'") == true)
  }

  @Test func tlsToAPlainHTTPServerSaysSo() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    let channel = try Self.channel("jsons://127.0.0.1:\(receiver.port)/hook")
    do {
      try await Self.send(channel, [Self.listing])
      Issue.record("TLS to a plain server must fail")
    } catch let error as DeliveryError {
      #expect(error.message.contains("TLS failed"), "\(error.message)")
      #expect(error.message.contains("is this server plain HTTP? (try http://"), "\(error.message)")
    }
  }
}
