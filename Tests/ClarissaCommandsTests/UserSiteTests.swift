import FixtureSupport
import Foundation
import Synchronization
import Testing

/// A site the project does not ship, declared by a user in `sites/` beside `searches.yaml` and
/// searched like any other: validated (with its URLs), run, and a new listing found on the next
/// run; all against a loopback server, through the built binary.
@Suite(.serialized) struct UserSiteTests {
  /// A swap board's search page with these ads (id, title, price).
  static func page(_ ads: [(Int, String, String)]) -> String {
    let articles = ads.map { id, title, price in
      """
      <article class="ad" data-id="\(id)">
        <a href="/ad/\(id)"><h2>\(title)</h2></a>
        <p class="price">\(price)</p><span class="place">Kreuzberg (2 km)</span>
        <time datetime="2026-11-22T10:0\(id % 10):00Z">vor 2 Std.</time>
        <img src="/img/\(id).jpg">
      </article>
      """
    }.joined(separator: "\n")
    return
      "<html><body><main>\(articles.isEmpty ? "<p class=\"none\">Nichts gefunden</p>" : articles)</main></body></html>"
  }

  static let definition = """
    format: 1
    id: swapboard
    name: Swapboard
    status: active
    summary: the search page of a swap board
    language: de
    time_zone: Europe/Berlin
    currency: EUR
    politeness: {delay: 1s, jitter: 0s, interval: 1m}
    cities:
      kind: table
      table:
        berlin: {code: "11"}
    requests:
      - url: "BASE/search/{city.code}"
        query: {q: "{query}", max: "{price.max}"}
        read:
          as: html
          items: '//article[@data-id]'
          empty: '//p[@class="none"]'
          fields:
            id: '@data-id'
            url: './/a/@href'
            title: './/h2'
            price: {path: './/p[@class="price"]', filters: [price]}
            location: {path: './/span[@class="place"]', filters: [{replace: ['\\s*\\(.*\\)', '']}]}
            posted: {path: './/time/@datetime', filters: [{date: [iso8601]}]}
            images: './/img/@src'
    """

  static let config = """
    version: 1
    searches:
      - name: desks
        site: swapboard
        query: desk
        cities: [berlin]
        price: {max: 300}
        interval: 1m
    """

  @Test func aDeclaredSiteIsValidatedRunAndFindsWhatIsNew() throws {
    let ads = LockedAds([(101, "Oak desk", "120 €"), (102, "Standing desk", "250 € VB")])
    let changed = LockedFlag()
    let server = try LoopbackServer { request, _ in
      guard request.path.hasPrefix("/search/11?q=desk&max=300") else {
        return .text("", status: 404)
      }
      // The site renamed its elements: no <article>, no "nothing found" either.
      return changed.value
        ? .text("<html><body><div class=\"ad-v2\">Oak desk</div></body></html>")
        : .text(Self.page(ads.value))
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-user-site-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sites"), withIntermediateDirectories: true)
    try Self.definition.replacingOccurrences(of: "BASE", with: server.base)
      .write(
        to: folder.appendingPathComponent("sites/swapboard.yaml"), atomically: true, encoding: .utf8
      )
    let config = folder.appendingPathComponent("searches.yaml").path
    try Self.config.write(toFile: config, atomically: true, encoding: .utf8)

    let validate = try StateCommandTests.clarissa(["validate", "--config", config, "--print-urls"])
    #expect(validate.status == 0, "\(validate.stderr)")
    #expect(
      validate.stdout.contains("desks\tberlin\tpage\t\(server.base)/search/11?q=desk&max=300"))

    let first = try StateCommandTests.clarissa(["run", "--config", config, "--notify-first-run"])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("Oak desk"))
    #expect(first.stdout.contains("Standing desk"))
    #expect(first.stdout.contains("€250"), "\(first.stdout)")

    ads.value.insert((103, "Walnut desk", "180 €"), at: 0)
    let second = try StateCommandTests.clarissa(["run", "--config", config, "--force"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("Walnut desk"))
    #expect(!second.stdout.contains("Oak desk"), "seen before: not new again")

    // A page that says it found nothing is an empty result.
    ads.value = []
    let empty = try StateCommandTests.clarissa(["run", "--config", config, "--force"])
    #expect(empty.status == 0, "the page says it found nothing: \(empty.stdout)")
    // A page on which the results are no longer where the definition looks is a failed source
    // that names the definition's line, never a quiet "nothing new".
    changed.value = true
    let broken = try StateCommandTests.clarissa(["run", "--config", config, "--force"])
    #expect(broken.status == 3, "\(broken.stdout)")
    #expect(broken.stdout.contains("found nothing and the page does not say it is empty"))
    #expect(broken.stdout.contains("sites/swapboard.yaml:19:14)"), "\(broken.stdout)")
  }

  @Test func aBrokenDefinitionStopsValidateAtItsLine() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-user-site-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("own"), withIntermediateDirectories: true)
    let broken = Self.definition.replacingOccurrences(of: "'.//h2'", with: "'.//h2['")
    try broken.write(
      to: folder.appendingPathComponent("own/swapboard.yaml"), atomically: true, encoding: .utf8)
    let config = folder.appendingPathComponent("searches.yaml").path
    try ("sites: own\n" + Self.config).write(toFile: config, atomically: true, encoding: .utf8)
    let outcome = try StateCommandTests.clarissa(["validate", "--config", config])
    #expect(outcome.status == 2)
    #expect(outcome.stderr.contains("own/swapboard.yaml:24:"), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("'.//h2[' is not a valid XPath"))
  }
}

extension UserSiteTests {
  /// The config is read and parsed once: its `sites:` names the folder (a missing one is an
  /// error at the value), and a `sites:` that is not text is the config's own error only.
  @Test func theSitesFolderComesFromTheConfigsOneParse() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-user-site-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("searches.yaml").path
    try ("sites: elsewhere\n" + Self.config).write(
      toFile: config, atomically: true, encoding: .utf8)
    let missing = try StateCommandTests.clarissa(["validate", "--config", config])
    #expect(missing.status == 2)
    #expect(
      missing.stderr.contains("searches.yaml:1:8: error: 'sites: elsewhere' is not a folder"),
      "\(missing.stderr)")
    try ("sites: {own: x}\n" + Self.config).write(
      toFile: config, atomically: true, encoding: .utf8)
    let mapping = try StateCommandTests.clarissa(["validate", "--config", config])
    #expect(mapping.status == 2)
    #expect(mapping.stderr.contains("expected text for 'sites'"), "\(mapping.stderr)")
    #expect(!mapping.stderr.contains("is not a folder"), "\(mapping.stderr)")
  }

  /// A site that answers a search with ids, then the ads of those ids (as flatfox does): two
  /// requests, the second built from what the first collected, one listing source.
  @Test func aSiteOfTwoRequestsIsAskedInTurn() throws {
    let server = try LoopbackServer { request, _ in
      if request.path == "/ids?q=desk" { return .text(#"[{"pk": 7}, {"pk": 9}]"#) }
      guard request.path == "/ads?expand=all&pk=7&pk=9" else { return .text("", status: 404) }
      return .text(
        #"[{"pk": 7, "title": "Oak desk", "url": "/ad/7", "price": 120}, "#
          + #"{"pk": 9, "title": "Pine desk", "url": "/ad/9", "price": 80}]"#)
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-user-site-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sites"), withIntermediateDirectories: true)
    let definition = """
      format: 1
      id: pinboard
      name: Pinboard
      status: active
      summary: ids first, then the ads
      currency: CHF
      politeness: {delay: 1s, jitter: 0s, interval: 1m}
      requests:
        - id: ids
          url: "\(server.base)/ids"
          query: {q: "{query}"}
          headers: {User-Agent: Pinboard-App/2.1}
          read:
            as: json
            collect: {pk: '$[*].pk'}
        - url: "\(server.base)/ads"
          query: {expand: all, pk: "{ids.pk}"}
          read:
            as: json
            items: '$[*]'
            fields:
              id: '@.pk'
              url: '@.url'
              title: '@.title'
              price: {path: '@.price', filters: [price]}
      """
    try definition.write(
      to: folder.appendingPathComponent("sites/pinboard.yaml"), atomically: true, encoding: .utf8)
    let config = folder.appendingPathComponent("searches.yaml").path
    try """
    version: 1
    searches:
      - name: desks
        site: pinboard
        query: desk
        interval: 1m
    """.write(toFile: config, atomically: true, encoding: .utf8)
    let run = try StateCommandTests.clarissa(["run", "--config", config, "--notify-first-run"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("Oak desk"))
    #expect(run.stdout.contains("Pine desk"))
    #expect(run.stdout.contains("CHF"), "\(run.stdout)")
    #expect(server.requests.map(\.path) == ["/ids?q=desk", "/ads?expand=all&pk=7&pk=9"])
    // A site's own User-Agent is sent as it asks; without one, clarissa's.
    let agents = server.requests.map { request in
      request.headers.first { $0.key.lowercased() == "user-agent" }?.value ?? ""
    }
    #expect(agents.first == "Pinboard-App/2.1")
    #expect(agents.last?.hasPrefix("clarissa") == true, "\(agents)")
  }
}

/// Ads a test changes while the server answers.
final class LockedAds: Sendable {
  private let ads: Mutex<[(Int, String, String)]>

  init(_ ads: [(Int, String, String)]) { self.ads = Mutex(ads) }

  var value: [(Int, String, String)] {
    get { ads.withLock { $0 } }
    set { ads.withLock { $0 = newValue } }
  }
}

/// A switch a test flips while the server answers.
final class LockedFlag: Sendable {
  private let flag = Mutex(false)

  var value: Bool {
    get { flag.withLock { $0 } }
    set { flag.withLock { $0 = newValue } }
  }
}
