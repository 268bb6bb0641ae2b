import ClarissaCore

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
}
