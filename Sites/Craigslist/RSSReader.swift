internal import ClarissaCore
internal import Feeds
internal import Foundation
internal import SiteFormat

/// Reads Craigslist's legacy RSS 1.0 search feed. Titles have the shape
/// `<title> (<place>) $<price> [3bd] [1930ft2]`; the posting id ends the item's URL.
enum RSSReader {
  static func read(_ response: SourceResponse) throws -> ListingBatch {
    let document = try FeedListings.document(response, source: "the RSS feed")
    var notes = document.problems
    var listings: [Listing] = []
    for item in document.items {
      guard let link = item.link, let id = SearchPageReader.postingKey(link) else {
        notes.append("item '\(item.title)' has no posting link; skipped")
        continue
      }
      let title = TitleShape(item.title)
      let price = title.price
      // The price comes from the title alone: the description stays pending HTML.
      let (text, html) = FeedListings.description(of: item)
      var listing = Listing(
        id: id, site: "craigslist", url: link, title: title.name, description: text,
        descriptionHTML: html, price: price,
        currency: price == nil ? nil : response.request.context["currency"],
        posted: item.published, location: title.place, area: area(of: link),
        imageURLs: item.enclosures.map(\.url), category: category(of: link))
      title.housing.apply(to: &listing)
      listings.append(listing)
    }
    return ListingBatch(listings: listings, notes: notes)
  }

  /// `https://sfbay.craigslist.org/eby/apa/6186664607.html` -> `sfbay/eby`.
  private static func area(of link: String) -> String? {
    guard let url = URL(string: link), let host = url.host, host.hasSuffix(".craigslist.org") else {
      return nil
    }
    let hostname = String(host.dropLast(".craigslist.org".count))
    let segments = url.path.split(separator: "/")
    return segments.count == 3 ? "\(hostname)/\(segments[0])" : hostname
  }

  private static func category(of link: String) -> String? {
    guard let url = URL(string: link) else { return nil }
    let segments = url.path.split(separator: "/")
    return segments.count >= 2 ? String(segments[segments.count - 2]) : nil
  }
}

/// A Craigslist RSS title taken apart: name, place in parentheses, price, housing details.
struct TitleShape {
  let name: String
  let place: String?
  let price: Double?
  /// `3bd 1930ft2` at the end.
  let housing: HousingText

  private static let pattern: NSRegularExpression? = try? NSRegularExpression(
    pattern:
      #"^(.*?)(?:\s+\(([^()]*)\))?(?:\s+([$£€¥]\s?[\d,.]+))?((?:\s+\d+bd)?(?:\s+\d+ft2)?)\s*$"#
  )

  init(_ title: String) {
    let range = NSRange(title.startIndex..., in: title)
    guard let match = Self.pattern?.firstMatch(in: title, range: range) else {
      (name, place, price, housing) = (title, nil, nil, HousingText(""))
      return
    }
    func group(_ index: Int) -> String? {
      Range(match.range(at: index), in: title).map { String(title[$0]) }
    }
    let base = group(1) ?? title
    name = base.isEmpty ? title : base
    place = group(2)
    price = group(3).flatMap(PriceText.parse)
    housing = HousingText(group(4) ?? "")
  }
}
