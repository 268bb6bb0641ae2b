package import ClarissaCore
package import Feeds
internal import ListingText
internal import Markup

/// Feed items as listings, for every adapter that reads a feed (generic feeds, Backpage's export,
/// Craigslist's legacy RSS).
package enum FeedListings {
  /// The generation of the reading of an item into a listing. Changed whenever an item becomes
  /// another listing than before (the feed reader, the price, the description): a store's
  /// digests from an older reading then match nothing, and every item is read once again
  /// (``ItemPass``). `UnchangedFeedItemsTests` pins it to what the fixtures read to.
  package static let generation = 2

  /// The response read as a feed and its items as listings, passing over the items of the
  /// search's last answer that it holds unchanged (``SourceResponse/known``): their ids are the
  /// batch's `unchanged`, and each listing read has its item's digest. Without `known`, every
  /// item is read and none has a digest.
  package static func batch(
    _ response: SourceResponse, source: String, site: String, dollarCurrency: String? = nil
  ) throws -> ListingBatch {
    var ids: [XMLDigest: String] = [:]
    ids.reserveCapacity(response.known?.ids.count ?? 0)
    for (digest, id) in response.known?.ids ?? [:] {
      if let digest = XMLDigest(digest) { ids[digest] = id }
    }
    let pass = response.known.map { _ in
      ItemPass(salt: salt(of: response, site: site, dollarCurrency: dollarCurrency), known: ids)
    }
    var (document, passed) = try read(response, source: source, passing: pass)
    // An id the answer gives twice, once passed over and once read: read it whole, so that the
    // first of the two wins, as it does when nothing is passed over.
    let passedIDs = Set(passed.compactMap { ids[$0] })
    if !passedIDs.isEmpty, document.items.contains(where: { passedIDs.contains($0.id) }) {
      (document, passed) = try read(
        response, source: source, passing: pass.map { ItemPass(salt: $0.salt, known: [:]) })
    }
    var digests: [String: String] = [:]
    var twice = Set<String>()
    for item in document.items {
      guard let digest = item.digest else { continue }
      if digests.updateValue(digest.description, forKey: item.id) != nil { twice.insert(item.id) }
    }
    for id in twice { digests[id] = nil }
    let notes = document.problems
    var batch = ListingBatch(
      listings: listings(
        consume document, site: site, response: response,
        dollarCurrency: dollarCurrency),
      notes: notes)
    batch.unchanged = passed.compactMap { ids[$0] }
    batch.digests = digests
    return batch
  }

  /// What an item's digest is keyed to besides the feed: this reading's generation, the site,
  /// the request and the answer's URL, and the engine's own salt (the limits a listing is cut
  /// to).
  private static func salt(of response: SourceResponse, site: String, dollarCurrency: String?)
    -> String
  {
    [
      "feed listings \(generation)", site, response.request.url, response.finalURL,
      response.request.city ?? "", dollarCurrency ?? "", response.known?.salt ?? "",
    ].joined(separator: "\n")
  }

  private static func read(_ response: SourceResponse, source: String, passing: ItemPass?) throws
    -> (FeedDocument, [XMLDigest])
  {
    do {
      return try FeedParser.read(
        response.body, url: response.finalURL, text: .deferred, passing: passing)
    } catch let error as FeedError {
      throw SiteError("\(source) could not be read: \(error.message)")
    }
  }

  /// The response's body read as a feed, or a ``SiteError`` saying which source could not be.
  /// Descriptions are left as HTML (``TextConversion/deferred``): most of a poll is already
  /// known, and only the listings a search has not seen need their text.
  package static func document(_ response: SourceResponse, source: String) throws -> FeedDocument {
    try read(response, source: source, passing: nil).0
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
