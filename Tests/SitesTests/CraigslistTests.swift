import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

/// Craigslist's tables, request mapping and decoding against the detail API.
@Suite struct CraigslistTests {
  let site = CraigslistSite()

  @Test func tablesShipInsideTheProgram() throws {
    #expect(CraigslistTables.areas.count == 707)
    #expect(CraigslistTables.categories.count == 178)
    #expect(CraigslistTables.areas.reduce(0) { $0 + $1.subareas.count } == 103)
    #expect(CraigslistTables.areasByHostname["sfbay"]?.areaID == 1)
    #expect(CraigslistTables.areasByHostname["newyork"]?.areaID == 3)
    #expect(CraigslistTables.areasByHostname["littlerock"]?.areaID == 100)
    #expect(CraigslistTables.categoriesByCode["apa"]?.categoryID == 1)
    #expect(CraigslistTables.categoriesByCode["ctd"]?.categoryID == 146)
    #expect(CraigslistTables.hostnames == Set(CraigslistTables.areas.map(\.hostname)))
    #expect(CraigslistTables.hostnames.count == 707)
  }

  /// The shipped tables are Craigslist's reference tables, every field: the copies in
  /// Fixtures/craigslist/reference are what `Sites/Craigslist/Tables/regenerate.py` reads.
  @Test func shippedTablesMatchTheReferenceFiles() throws {
    let areas = try Self.reference("areas.json")
    let shipped = CraigslistTables.areasByHostname
    #expect(areas.count == CraigslistTables.areas.count)
    for reference in areas {
      let hostname = reference["Hostname"] as? String ?? "?"
      let area = try #require(shipped[hostname], "\(hostname) is not shipped")
      #expect(area.areaID == reference["AreaID"] as? Int, "\(hostname)")
      #expect(area.abbreviation == reference["Abbreviation"] as? String, "\(hostname)")
      #expect(area.country == reference["Country"] as? String, "\(hostname)")
      #expect(area.region == reference["Region"] as? String ?? "", "\(hostname)")
      #expect(area.name == reference["Description"] as? String, "\(hostname)")
      #expect(area.timeZone == reference["Timezone"] as? String, "\(hostname)")
      #expect(area.latitude == (reference["Latitude"] as? NSNumber)?.doubleValue, "\(hostname)")
      #expect(area.longitude == (reference["Longitude"] as? NSNumber)?.doubleValue, "\(hostname)")
      let subareas = reference["SubAreas"] as? [[String: Any]] ?? []
      #expect(
        area.subareas.map { "\($0.abbreviation) \($0.subareaID) \($0.name)" }
          == subareas.map {
            "\($0["Abbreviation"] ?? "?") \($0["SubAreaID"] ?? "?") \($0["Description"] ?? "?")"
          }, "\(hostname)")
    }
    let categories = try Self.reference("categories.json")
    #expect(
      CraigslistTables.categories.map {
        "\($0.abbreviation) \($0.categoryID) \($0.name) \($0.type)"
      }
        == categories.map {
          "\($0["Abbreviation"] ?? "?") \($0["CategoryID"] ?? "?") \($0["Description"] ?? "?") \($0["Type"] ?? "?")"
        })
  }

  /// The rows of a reference table.
  static func reference(_ name: String) throws -> [[String: Any]] {
    let data = Data(try Fixtures.bytes("craigslist/reference/" + name))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
  }

  @Test(arguments: [
    ("sfbay", NameCheck.valid), ("sfbay/eby", .valid), ("newyork/mnh", .valid),
    ("chicgo", .unknown(suggestions: ["chicago"])),
    ("new york", .means("newyork")), ("SF bay area", .means("sfbay")), ("sf", .means("sfbay")),
    ("berkeley", .means("sfbay/eby")), ("sanfrancisco", .means("sfbay/sfc")),
    ("san fransisco", .unknown(suggestions: ["sfbay/sfc"])),
  ])
  func citiesAreCheckedWithSuggestions(name: String, expected: NameCheck) {
    #expect(site.checkCity(name) == expected)
  }

  @Test func apiRequestCarriesEveryParameter() throws {
    let search = Search(
      name: "s", site: "craigslist", query: "aeron | \"herman miller\"", category: "fua",
      searchIn: .title, price: PriceRange(min: 100, max: 650), hasImage: true, postedToday: true,
      parameters: [
        "mode": .text("api"), "bundle_duplicates": .bool(true), "purveyor": .text("owner"),
        "postal": .text("94110"), "search_distance": .integer(10), "sort": .text("date"),
        "include_nearby": .bool(false),
      ])
    let request = try #require(site.requests(for: search, in: CityRef("sfbay")).first)
    #expect(
      request.url
        == "https://sapi.craigslist.org/web/v8/postings/search/full?batch=1-0-360-1-0&searchPath=fua"
        + "&cc=US&lang=en&query=aeron%20%7C%20%22herman%20miller%22&srchType=T&min_price=100"
        + "&max_price=650&hasPic=1&postedToday=1&bundleDuplicates=1&purveyor=owner&postal=94110"
        + "&search_distance=10")
    #expect(request.context["areaID"] == "1")
    #expect(request.context["currency"] == "USD")
    #expect(request.mode == "api")
  }

  @Test func subareasAndPageModes() throws {
    var search = Search(
      name: "s", site: "craigslist", category: "apa", parameters: ["mode": .text("api")])
    let api = try #require(site.requests(for: search, in: CityRef("newyork/mnh")).first)
    #expect(api.url.contains("batch=0-0-360-1-0&searchPath=subarea/mnh&cat=apa&cc=US"))
    search.parameters["mode"] = .text("html")
    let html = try #require(site.requests(for: search, in: CityRef("newyork/mnh")).first)
    #expect(html.url == "https://newyork.craigslist.org/search/mnh/apa?sort=date")
    search.parameters["mode"] = .text("rss")
    let rss = try #require(site.requests(for: search, in: CityRef("london")).first)
    #expect(rss.url == "https://london.craigslist.org/search/apa?sort=date&format=rss")
    #expect(rss.context["currency"] == "GBP")
  }

  @Test func sapiRowAgreesWithTheDetailAPI() throws {
    let request = site.request(forSavedResponseIn: "api", city: "sfbay")
    let batch = try site.listings(
      from: SourceResponse(
        request: request, body: try Fixtures.bytes("craigslist/sfbay-sss-sapi-1.json")))
    let detailObject = try JSONSerialization.jsonObject(
      with: Data(try Fixtures.bytes("craigslist/sfbay-ele-rapi-detail-1.json")))
    let detail = try #require(
      ((detailObject as? [String: Any])?["data"] as? [String: Any])?["items"] as? [[String: Any]]
    ).first
    let row = try #require(batch.listings.first)
    #expect(row.id == String((detail?["postingId"] as? NSNumber)?.intValue ?? 0))
    #expect(
      row.posted
        == Date(timeIntervalSince1970: (detail?["postedDate"] as? NSNumber)?.doubleValue ?? 0))
    #expect(row.price == (detail?["price"] as? NSNumber)?.doubleValue)
    #expect(row.title == detail?["title"] as? String)
    #expect(row.url == detail?["url"] as? String)
    #expect(row.category == detail?["categoryAbbr"] as? String)
  }

  @Test func aForbiddenAnswerIsABlockNotAnEmptyResult() throws {
    let request = site.request(forSavedResponseIn: "api", city: "sfbay")
    let response = SourceResponse(request: request, status: 403, body: Array("Forbidden".utf8))
    do {
      _ = try site.listings(from: response)
      Issue.record("a 403 must throw")
    } catch let error as SiteError {
      #expect(error.isBlock)
    }
  }
}
