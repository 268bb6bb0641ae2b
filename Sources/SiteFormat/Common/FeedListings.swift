import ClarissaCore
import Feeds
import ListingText
import Markup

/// Feed items as listings, for every adapter that reads a feed (generic feeds, Backpage's export,
/// Craigslist's legacy RSS).
package enum FeedListings {
  /// The response's body read as a feed, or a ``SiteError`` saying which source could not be.
  /// Descriptions are left as HTML (``TextConversion/deferred``): most of a poll is already
  /// known, and only the listings a search has not seen need their text.
  package static func document(_ response: SourceResponse, source: String) throws -> FeedDocument {
    do {
      return try FeedParser.parse(response.body, url: response.finalURL, text: .deferred)
    } catch let error as FeedError {
      throw SiteError("\(source) could not be read: \(error.message)")
    }
  }

  /// Each item as a listing: its id (guid, else link, else hash), a price read from the title,
  /// else the description, with the currency written there (`$` alone taken as
  /// `dollarCurrency`, since the sign names no country), image enclosures. The description
  /// stays pending HTML (``Listing/descriptionHTML``) unless the price had to be read from it.
  ///
  /// Each item is let go once it is a listing: a 20,000-item feed never holds its items and
  /// their listings whole at once (give the document up: `consume document`).
  package static func listings(
    _ document: consuming FeedDocument, site: String, response: SourceResponse,
    dollarCurrency: String? = nil
  ) -> [Listing] {
    var items = document.items
    document.items = []
    items.reverse()
    var listings: [Listing] = []
    listings.reserveCapacity(items.count)
    while let item = items.popLast() {
      listings.append(
        listing(of: item, site: site, response: response, dollarCurrency: dollarCurrency))
    }
    return listings
  }

  private static func listing(
    of item: FeedItem, site: String, response: SourceResponse, dollarCurrency: String?
  ) -> Listing {
    var (text, html) = description(of: item)
    var price = FeedPrice.find(in: item.title)
    if price == nil {
      // The title names no price: the description's text is needed after all, unless its
      // HTML holds no digit (then its text holds none either, and so no price).
      if let pending = html, FeedPrice.mayHoldPrice(html: pending) {
        (text, html) = (ListingDescription.plainText(fromHTML: pending), nil)
      }
      price = FeedPrice.find(inDescription: text)
    }
    return Listing(
      id: item.id, site: site, url: item.link ?? response.finalURL, title: item.title,
      description: text, descriptionHTML: html, price: price?.amount,
      currency: price.flatMap { $0.currency ?? dollarCurrency },
      posted: item.published ?? item.updated, area: response.request.city,
      imageURLs: item.enclosures.filter { $0.type?.hasPrefix("image") ?? true }.map(\.url),
      category: item.categories.first)
  }

  /// An item's description as a listing carries it: the plain text the parse made, or (empty
  /// text and) the HTML it left for later, when reading it needs the HTML parser.
  package static func description(of item: FeedItem) -> (text: String, html: String?) {
    guard item.text.isEmpty, let html = item.html, HTMLText.needsParser(html) else {
      return (item.text, nil)
    }
    return ("", html)
  }
}
