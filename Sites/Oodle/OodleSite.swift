public import ClarissaCore
internal import Foundation
internal import Markup
internal import SiteFormat

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
  public let modes = ["api"]
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

  /// One request per region. The key stays a `${NAME}` reference in the URL: sites never read
  /// the environment, and printed URLs never show the secret; the fetcher fills it in.
  public func requests(for search: Search, in city: CityRef?) -> [RequestSpec] {
    guard let city else { return [] }
    let keyVariable = search.parameters["api_key_env"].map(\.description) ?? "OODLE_API_KEY"
    var query: [(String, String)] = [("region", city.name)]
    if let category = search.category { query.append(("category", category)) }
    if let text = search.query { query.append(("q", text)) }
    query += [
      ("start", "1"), ("num", "50"), ("sort", "ctime_reverse"), ("format", "json"),
      ("jsoncallback", "none"),
    ]
    let url =
      "https://api.oodle.com/api/v2/listings?key=${\(keyVariable)}&" + URLQuery.encode(query)
    return [
      RequestSpec(
        url: url, headers: ["Accept": "application/json"], mode: "api", city: city.name,
        context: ["secrets": keyVariable], allowsConditionalGET: false)
    ]
  }

  /// `{stat, meta: {total}, listings: [{id, title, body, url, price, location, category,
  /// images, ctime}]}` as Oodle documents it.
  public func listings(from response: SourceResponse) throws -> ListingBatch {
    guard let root = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
    else {
      throw SiteError("the Oodle answer is not a JSON object")
    }
    guard root["stat"] as? String == "ok" else {
      let reason = (root["error"] as? [String: Any])?["msg"] as? String ?? root["error"] as? String
      throw SiteError(
        "Oodle answered stat '\(root["stat"] ?? "none")'" + (reason.map { ": \($0)" } ?? ""))
    }
    var notes: [String] = []
    var listings: [Listing] = []
    for (index, raw) in (root["listings"] as? [Any] ?? []).enumerated() {
      guard let item = raw as? [String: Any], let key = Self.text(item["id"]),
        let url = item["url"] as? String
      else {
        notes.append("listing \(index + 1) has no id or url; skipped")
        continue
      }
      listings.append(listing(item, id: key, url: url, region: response.request.city))
    }
    return ListingBatch(listings: listings, notes: notes)
  }

  private func listing(_ item: [String: Any], id key: String, url: String, region: String?)
    -> Listing
  {
    let location = item["location"] as? [String: Any]
    var coordinates: Coordinates?
    if let lat = Self.number(location?["latitude"]), let lon = Self.number(location?["longitude"]) {
      coordinates = Coordinates(latitude: lat, longitude: lon)
    }
    let images = (item["images"] as? [Any] ?? []).compactMap { image -> String? in
      (image as? [String: Any]).flatMap { $0["src"] as? String ?? $0["url"] as? String } ?? image
        as? String
    }
    let price = Self.number(item["price"])
    // The body is HTML: left pending (made text only for listings a search has not seen), and
    // made text now only when that is a byte scan.
    let body = item["body"] as? String ?? ""
    let html = HTMLText.needsParser(body) ? body : nil
    return Listing(
      id: key, site: id, url: url, title: item["title"] as? String ?? "",
      description: html == nil ? HTMLText.normalize(body) : "", descriptionHTML: html, price: price,
      currency: price == nil ? nil : "USD",
      posted: Self.number(item["ctime"]).map { Date(timeIntervalSince1970: $0) },
      location: location?["name"] as? String, area: region, coordinates: coordinates,
      imageURLs: images, category: (item["category"] as? [String: Any])?["id"] as? String)
  }

  private static func text(_ value: Any?) -> String? {
    (value as? String) ?? (value as? NSNumber)?.stringValue
  }

  private static func number(_ value: Any?) -> Double? {
    (value as? NSNumber)?.doubleValue ?? (value as? String).flatMap(PriceText.parse)
  }
}
