import FixtureSupport
import Foundation
import Testing

/// Given two searches on two sites (declared in `sites/`, served by a loopback server) that both
/// find one flat, pinned 60 m apart, 64.5 m² on one and 65 m² on the other, €1,199 and €1,200,
/// when the user runs them with a loopback webhook, then the flat is announced once, the other
/// site's listing of it is recorded and linked, and `show` and `listings` name each from the
/// other.
@Suite(.serialized) struct CrossSiteRunTests {
  /// A site answering JSON with facts and coordinates.
  static func definition(_ id: String, base: String) -> String {
    """
    format: 1
    id: \(id)
    name: \(id.capitalized)
    status: active
    summary: flats with their facts and pins
    language: de
    time_zone: Europe/Berlin
    currency: EUR
    politeness: {delay: 0s, jitter: 0s, interval: 1m}
    cities:
      kind: table
      table:
        berlin: {code: "11"}
    requests:
      - url: "\(base)/\(id)/{city.code}"
        read:
          as: json
          items: '$.flats[*]'
          fields:
            id: '@.id'
            url: '@.url'
            title: '@.title'
            price: {path: '@.price', filters: [price]}
            latitude: '@.lat'
            longitude: '@.lon'
            rooms: '@.rooms'
            floor_area: '@.area'
    """
  }

  /// One flat of a site's answer.
  static func flat(
    _ id: String, site: String, north: Double, area: String, price: String,
    rooms: String = "2.5"
  ) -> String {
    """
    {"id": "\(id)", "url": "/\(site)/flat/\(id)", "title": "2,5 Zimmer Altbau \(id)",
     "price": "\(price) €", "lat": \(52.5010 + north / 111_195), "lon": 13.418,
     "rooms": \(rooms), "area": \(area)}
    """
  }

  @Test func theSameFlatOnTwoSitesIsAnnouncedOnceAndLinkedBothWays() throws {
    let hook = try LoopbackServer { _, _ in .init(status: 200) }
    let sites = try LoopbackServer { request, _ in
      if request.path.hasPrefix("/dachboden/11") {
        return .text(
          "{\"flats\": [\(Self.flat("d-100", site: "dachboden", north: 0, area: "64.5", price: "1.199")), "
            + "\(Self.flat("d-200", site: "dachboden", north: 2_000, area: "80", price: "1.500", rooms: "3"))]}"
        )
      }
      if request.path.hasPrefix("/kellerfund/11") {
        return .text(
          "{\"flats\": [\(Self.flat("k-7", site: "kellerfund", north: 60, area: "65", price: "1.200"))]}"
        )
      }
      return .text("", status: 404)
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-cross-site-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sites"), withIntermediateDirectories: true)
    for site in ["dachboden", "kellerfund"] {
      try Self.definition(site, base: sites.base).write(
        to: folder.appendingPathComponent("sites/\(site).yaml"), atomically: true,
        encoding: .utf8)
    }
    let config = folder.appendingPathComponent("searches.yaml").path
    try """
    version: 1
    notify:
      hook: json://127.0.0.1:\(hook.port)/hook
    defaults:
      cities: [berlin]
      interval: 1m
      notify: [hook]
    searches:
      - name: flats-dachboden
        site: dachboden
      - name: flats-kellerfund
        site: kellerfund
    """.write(toFile: config, atomically: true, encoding: .utf8)
    let state = folder.appendingPathComponent("clarissa.db").path

    let run = try StateCommandTests.clarissa([
      "run", "--config", config, "--state", state, "--notify-first-run",
    ])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("1 already on another site"), "\(run.stdout)")
    // Whichever search was judged first announced the flat; the other site's post of it is
    // recorded and linked, not sent.
    let sent = hook.requests.map(\.text).joined(separator: "\n")
    let flats = ["d-100", "k-7"].filter { sent.contains("Altbau \($0)") }
    #expect(flats.count == 1, "\(sent)")
    #expect(sent.contains("Altbau d-200"), "a flat of its own is announced")
    let (announced, folded) =
      flats == ["d-100"]
      ? ("dachboden:d-100", "kellerfund:k-7") : ("kellerfund:k-7", "dachboden:d-100")

    for (key, other) in [(announced, folded), (folded, announced)] {
      let show = try StateCommandTests.clarissa([
        "show", key, "--config", config, "--state", state,
      ])
      #expect(show.status == 0, "\(show.stderr)")
      let otherSite = String(other.prefix { $0 != ":" })
      #expect(
        show.stdout.contains("\n  also on \(otherSite): \(other)  \(sites.base)/"), "\(show.stdout)"
      )
    }
    let json = try StateCommandTests.clarissa([
      "listings", "--config", config, "--state", state, "--format", "json",
    ])
    #expect(json.status == 0, "\(json.stderr)")
    let found = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(found.count == 3)
    let also = found.compactMap { entry -> String? in
      guard let listing = entry["listing"] as? [String: Any],
        let others = entry["alsoOn"] as? [[String: Any]], let other = others.first
      else { return nil }
      return "\(listing["site"] ?? "")->\(other["site"] ?? ""):\(other["id"] ?? "")"
    }.sorted()
    #expect(also == ["dachboden->kellerfund:k-7", "kellerfund->dachboden:d-100"], "\(json.stdout)")
  }
}
