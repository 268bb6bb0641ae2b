import ClarissaCore
import FixtureSupport
import Foundation
import ListingText
import Sites
import Testing

/// One recorded response of a site and what reading it must give (`Fixtures/<site>/cases.json`).
struct SiteCase: Decodable, CustomTestStringConvertible, Sendable {
  var site = ""
  var file: String
  var mode: String
  var city: String?
  var url: String?
  var count: Int?
  var expected: String?
  var error: String?
  var parameters: [String: Value]?
  /// When the answer was recorded (ISO 8601), for dates the page writes relative to then.
  var receivedAt: String?

  private enum CodingKeys: String, CodingKey {
    case file, mode, city, url, count, expected, error, parameters, receivedAt
  }

  /// A parameter value as JSON writes it.
  enum Value: Decodable, Sendable {
    case bool(Bool), integer(Int), text(String), list([String])

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let value = try? container.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? container.decode(Int.self) {
        self = .integer(value)
      } else if let value = try? container.decode(String.self) {
        self = .text(value)
      } else {
        self = .list(try container.decode([String].self))
      }
    }

    var parameter: ParameterValue {
      switch self {
      case .bool(let value): .bool(value)
      case .integer(let value): .integer(value)
      case .text(let value): .text(value)
      case .list(let value): .urls(value)
      }
    }
  }

  var testDescription: String {
    "\(site)/\(file) (\(mode)\(parameters.map { ", \($0.keys.sorted().joined(separator: ","))" } ?? ""))"
  }

  static func all(for site: String) -> [SiteCase] {
    let url = Fixtures.root.appendingPathComponent(site).appendingPathComponent("cases.json")
    guard let data = try? Data(contentsOf: url) else { return [] }
    // A broken cases.json must fail loudly, not run no case.
    let cases =
      (try? JSONDecoder().decode([SiteCase].self, from: data)) ?? [
        SiteCase(file: "cases.json (does not decode)", mode: "", error: "cases.json")
      ]
    return cases.map {
      var copy = $0
      copy.site = site
      return copy
    }
  }

  static var everyCase: [SiteCase] { Registry.sites.ids.flatMap(all(for:)) }

  /// The recorded answer as `site` receives it.
  func response(of site: any FeedSource) throws -> SourceResponse {
    let body = try Fixtures.bytes("\(self.site)/\(file)")
    let request = site.request(
      forSavedResponseIn: mode, city: city,
      parameters: (parameters ?? [:]).mapValues(\.parameter), url: url)
    let received = receivedAt.flatMap { ISO8601DateFormatter().date(from: $0) }
    return SourceResponse(request: request, body: body, finalURL: url, receivedAt: received)
  }
}

/// Every recorded response of every registered site reads to its golden listings.
@Suite struct SiteFixtureTests {
  @Test(arguments: SiteCase.everyCase)
  func recordedResponseGivesGoldenListings(_ fixture: SiteCase) throws {
    let site = try #require(Registry.sites.site(fixture.site))
    let response = try fixture.response(of: site)
    if let expectedError = fixture.error {
      #expect(throws: SiteError.self) { try site.listings(from: response) }
      do {
        _ = try site.listings(from: response)
      } catch let error as SiteError {
        #expect(error.message.contains(expectedError), "\(error.message)")
      }
      return
    }
    let batch = try site.listings(from: response)
    if let count = fixture.count { #expect(batch.listings.count == count) }
    #expect(Set(batch.listings.map(\.id)).count == batch.listings.count, "ids are unique")
    let golden = try #require(fixture.expected)
    // The goldens hold what a person is shown: descriptions made text.
    try Fixtures.expectGolden(
      ListingJSON.encode(ListingDescription.resolve(batch.listings)),
      at: Fixtures.root.appendingPathComponent(fixture.site).appendingPathComponent(golden))
  }
}
