public import ClarissaCore
internal import Feeds
internal import SiteFormat

/// Backpage's RSS export. Defunct: the site was seized on 2018-04-06.
public struct BackpageSite: FeedSource {
  /// Creates the adapter.
  public init() {}

  public let id = "backpage"
  public let displayName = "Backpage"
  public let status = SiteStatus.defunct
  public let summary = "Backpage's RSS export by city; the site was seized in April 2018."
  public let cities = CityRule.required
  public let modes = ["rss"]
  /// Its pages give a place by name only.
  public var givesCoordinates: Bool { false }
  public let politeness = Politeness(
    minimumDelay: 3, jitter: 2, concurrencyPerHost: 1, minimumInterval: 300)

  public let parameters: [SiteParameter] = [
    SiteParameter(
      "section", .integer(1...999_999_999), summary: "Backpage's numeric section id",
      example: "4373")
  ]

  /// Backpage cities were subdomains (`seattle`).
  public func checkCity(_ name: String) -> NameCheck {
    let valid = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
    return valid
      ? .valid
      : .unknown(suggestions: [], reason: "Backpage cities were lower-case subdomains")
  }

  /// Backpage categories were numeric ids.
  public func checkCategory(_ name: String) -> NameCheck {
    name.allSatisfy(\.isNumber) && !name.isEmpty
      ? .valid : .unknown(suggestions: [], reason: "Backpage categories were numeric ids")
  }

  /// `https://<city>.backpage.com/online/exports/Rss.xml?section=<id>&category=<id>`.
  public func requests(for search: Search, in city: CityRef?) -> [RequestSpec] {
    guard let city else { return [] }
    var query: [(String, String)] = []
    if let section = search.parameters["section"] { query.append(("section", section.description)) }
    if let category = search.category { query.append(("category", category)) }
    let suffix = query.isEmpty ? "" : "?" + URLQuery.encode(query)
    return [
      RequestSpec(
        url: "https://\(city.name).backpage.com/online/exports/Rss.xml\(suffix)",
        headers: ["Accept": "application/rss+xml"], mode: "rss", city: city.name)
    ]
  }

  /// The RSS 2.0 export: ids are the item guids (else links); prices stand in titles.
  public func listings(from response: SourceResponse) throws -> ListingBatch {
    let document = try FeedListings.document(response, source: "the Backpage export")
    let notes = document.problems
    return ListingBatch(
      listings: FeedListings.listings(
        consume document, site: id, response: response, dollarCurrency: "USD"),
      notes: notes)
  }
}
