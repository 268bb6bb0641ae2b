import ClarissaCore

/// Oodle's keyed listings API. Unverified: built from its documentation, never checked live.
public struct OodleSite: FeedSource {
  /// Creates the adapter.
  public init() {}

  public let id = "oodle"
  public let displayName = "Oodle"
  public let status = SiteStatus.unverified
  public let summary =
    "Oodle's listings API (JSON), keyed by an API key from the environment; unverified."
  public let cities = CityRule.required
  public let politeness = Politeness(
    minimumDelay: 2, jitter: 1, concurrencyPerHost: 1, minimumInterval: 300)

  public let parameters: [SiteParameter] = [
    SiteParameter(
      "api_key_env", .text, summary: "environment variable holding the Oodle API key",
      example: "OODLE_API_KEY", defaultValue: "OODLE_API_KEY")
  ]

  /// Oodle regions are lower-case words (`usa`, `chicago`, `sf`).
  public func checkCity(_ name: String) -> NameCheck {
    let valid = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLowercase || $0 == "_") }
    return valid
      ? .valid
      : .unknown(suggestions: [], reason: "Oodle regions are lower-case words such as 'usa'")
  }
}
