import ClarissaCore

/// Backpage's RSS export. Defunct: the site was seized on 2018-04-06.
public struct BackpageSite: FeedSource {
  /// Creates the adapter.
  public init() {}

  public let id = "backpage"
  public let displayName = "Backpage"
  public let status = SiteStatus.defunct
  public let summary = "Backpage's RSS export by city; the site was seized in April 2018."
  public let cities = CityRule.required
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
}
