public import ClarissaCore
internal import SiteFormat

/// Any RSS, Atom or JSON Feed: a search lists its feed URLs instead of cities.
public struct GenericFeedSite: FeedSource {
  /// Creates the adapter.
  public init() {}

  public let id = "feed"
  public let displayName = "RSS / Atom / JSON Feed"
  public let status = SiteStatus.active
  public let summary =
    "Any RSS 0.9x/2.0, RSS 1.0, Atom or JSON Feed: a Reddit .rss, an RSS-Bridge instance, a blog."
  public let cities = CityRule.unused
  public let modes = ["feed"]
  public var kind: SiteKind { .feed }
  /// An RSS, Atom or JSON feed item is read without a place in degrees.
  public var givesCoordinates: Bool { false }
  public let politeness = Politeness(
    minimumDelay: 1, jitter: 1, concurrencyPerHost: 1, minimumInterval: 60)

  public let parameters: [SiteParameter] = [
    SiteParameter(
      "feeds", .urls, summary: "the feed URLs to read (http or https)",
      example: "https://www.reddit.com/r/hardwareswap/new/.rss", isRequired: true)
  ]

  public func checkCity(_ name: String) -> NameCheck {
    .unknown(suggestions: [], reason: "site 'feed' takes no cities; list URLs under 'feeds'")
  }

  /// One request per feed URL.
  public func requests(for search: Search, in city: CityRef?) -> [RequestSpec] {
    guard case .urls(let urls)? = search.parameters["feeds"] else { return [] }
    return urls.map {
      RequestSpec(
        url: $0,
        headers: [
          "Accept":
            "application/atom+xml, application/rss+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8"
        ],
        mode: "feed")
    }
  }

  /// Items become listings: the id is the item's (guid, else link, else hash); a price is
  /// read from the title when it shows one (`[H] RTX 3080 $450`).
  public func listings(from response: SourceResponse) throws -> ListingBatch {
    if response.status >= 400 {
      throw SiteError("the feed answered HTTP \(response.status)", isBlock: response.status == 403)
    }
    return try FeedListings.batch(
      response,
      source: response.request.url.isEmpty ? "the feed" : "the feed \(response.request.url)",
      site: id)
  }

  public let passesUnchangedItems = true
}
