import FixtureSupport
import Foundation
import Testing

/// A search page pasted as `url:` for a site a user declares with `search_url:`, run through the
/// built binary against a loopback server that plays the site: the request on the wire keeps the
/// pasted path and query, loses the pasted page and order, carries the site's own order, and the
/// listings it answers pass clarissa's own price range.
@Suite(.serialized) struct PastedURLLoopbackTests {
  static let definition =
    UserSiteTests.definition + """

      search_url:
        hosts: [127.0.0.1]
        edit:
          - ['/page:[0-9]+', '']
        path: '/search/(?<city>[0-9]+)'
        request: 'BASE{url.path|raw}'
        keep: all
        drop: [p]
        set: {sort: new}
        examples:
          - url: BASE/search/11/page:3?q=desk&sort=price&p=2
            request: BASE/search/11?q=desk&sort=new
      """

  @Test func thePastedSearchIsAskedAsPastedAndRead() throws {
    let server = try LoopbackServer { request, _ in
      guard request.path == "/search/11?q=desk&max=300&sort=new" else {
        return .text("", status: 404)
      }
      return .text(
        UserSiteTests.page([
          (101, "Oak desk", "120 €"), (102, "Standing desk", "250 € VB"),
        ]))
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-pasted-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sites"), withIntermediateDirectories: true)
    try Self.definition.replacingOccurrences(of: "BASE", with: server.base)
      .write(
        to: folder.appendingPathComponent("sites/swapboard.yaml"), atomically: true,
        encoding: .utf8)
    let config = folder.appendingPathComponent("searches.yaml").path
    try """
    version: 1
    searches:
      - name: desks
        url: \(server.base)/search/11/page:2?q=desk&max=300&sort=price&p=2
        price: {max: 200}
        interval: 1m
    """.write(toFile: config, atomically: true, encoding: .utf8)

    let validate = try StateCommandTests.clarissa(["validate", "--config", config, "--print-urls"])
    #expect(validate.status == 0, "\(validate.stderr)")
    #expect(
      validate.stdout.contains("desks\t11\tpage\t\(server.base)/search/11?q=desk&max=300&sort=new"),
      "\(validate.stdout)")

    let run = try StateCommandTests.clarissa(["run", "--config", config, "--notify-first-run"])
    #expect(run.status == 0, "\(run.stderr)\(run.stdout)")
    // The search, then the photo of its one new listing (its fingerprint, `photos:`).
    #expect(
      server.requests.map(\.path) == ["/search/11?q=desk&max=300&sort=new", "/img/101.jpg"])
    #expect(run.stdout.contains("Oak desk"))
    #expect(!run.stdout.contains("Standing desk"), "above the search's own price range")
  }
}
