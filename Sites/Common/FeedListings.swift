import ClarissaCore
import Feeds

/// Feed items as listings, for every adapter that reads a feed (generic feeds, Backpage's export,
/// Craigslist's legacy RSS).
enum FeedListings {
  /// The response's body read as a feed, or a ``SiteError`` saying which source could not be.
  static func document(_ response: SourceResponse, source: String) throws -> FeedDocument {
    do {
      return try FeedParser.parse(response.body, url: response.finalURL)
    } catch let error as FeedError {
      throw SiteError("\(source) could not be read: \(error.message)")
    }
  }

  /// Each item as a listing: its id (guid, else link, else hash), a price read from the title,
  /// else the description, with the currency written there (`$` alone taken as
  /// `dollarCurrency`, since the sign names no country), image enclosures.
  static func listings(
    _ document: FeedDocument, site: String, response: SourceResponse, dollarCurrency: String? = nil
  ) -> [Listing] {
    document.items.map { item in
      let price = FeedPrice.find(in: item.title, description: item.text)
      return Listing(
        id: item.id, site: site, url: item.link ?? response.finalURL, title: item.title,
        description: item.text, price: price?.amount,
        currency: price.flatMap { $0.currency ?? dollarCurrency },
        posted: item.published ?? item.updated, area: response.request.city,
        imageURLs: item.enclosures.filter { $0.type?.hasPrefix("image") ?? true }.map(\.url),
        category: item.categories.first)
    }
  }
}
