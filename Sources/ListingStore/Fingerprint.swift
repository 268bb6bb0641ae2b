import ClarissaCore
import Foundation

/// "The same item" under another id: a repost, or a cross-post to another area or category.
/// Measured on a real sfbay page (Fixtures/craigslist/sfbay-sss-sapi-1.json): of 360 rows, 69 in
/// 23 groups share a title and a price; within a group they share photos or have none, except
/// sellers who posted the same item again with new photos. Different items that share a title
/// differ in price and photos. So two listings are the same item when their titles (folded) are
/// equal and so are their prices, or when they share a photo and their titles or prices agree.
/// The place is not compared: a cross-post to another subarea is the same item. Where the site
/// says itself which posts are one item (Craigslist sapi's duplicate group), that comes first:
/// it also joins the posts whose price was changed between them.
package enum Fingerprint {
  /// The title folded: lower case, letters and digits only, words separated by one space.
  package static func title(_ text: String) -> String {
    var words: [String] = []
    var word = ""
    for character in text.lowercased() {
      if character.isLetter || character.isNumber {
        word.append(character)
      } else if !word.isEmpty {
        words.append(word)
        word = ""
      }
    }
    if !word.isEmpty { words.append(word) }
    return words.joined(separator: " ")
  }

  /// The stored key of a listing's title and price: equal keys are the same item.
  package static func key(_ listing: Listing) -> String {
    let price = listing.price.map { String(format: "%.2f", $0) } ?? "-"
    return ContentHash.hex([title(listing.title), price, listing.currency ?? ""])
  }

  /// The site's ids of the listing's photos: for Craigslist the image id without its size
  /// (`<id>_600x450.jpg`), which survives a repost; elsewhere the photo's address.
  package static func images(_ listing: Listing) -> [String] {
    listing.imageURLs.map { url in
      guard url.contains("images.craigslist.org/") else { return url }
      let name = url.split(separator: "/").last.map(String.init) ?? url
      return name.split(separator: "_").dropLast().joined(separator: "_")
    }.filter { !$0.isEmpty }
  }

  /// Whether two listings are the same item (the rule above).
  package static func sameItem(_ first: Listing, _ second: Listing) -> Bool {
    Item(first).isSame(as: Item(second))
  }

  /// A listing with what the rule compares, worked out once.
  package struct Item {
    let listing: Listing
    let title: String
    let key: String
    let images: Set<String>

    package init(_ listing: Listing) {
      self.listing = listing
      title = Fingerprint.title(listing.title)
      key = Fingerprint.key(listing)
      images = Set(Fingerprint.images(listing))
    }

    func isSame(as other: Item) -> Bool {
      guard listing.site == other.listing.site, listing.id != other.listing.id else { return false }
      let sameTitle = title == other.title && !title.isEmpty
      let samePrice =
        listing.price == other.listing.price
        && listing.currency == other.listing.currency
      if sameTitle && samePrice { return true }
      return !images.isDisjoint(with: other.images) && (sameTitle || samePrice)
    }
  }

  /// The listings of one run so far, found by what makes two the same item: the site's own
  /// duplicate group first (Craigslist groups reposts whose price or photos changed), then the
  /// key of title and price, or a photo in common (then checked by the rule). The earliest
  /// added wins.
  package struct RunIndex {
    private var entries: [(item: Item, firstSeen: Date?)] = []
    private var byKey: [String: Int] = [:]
    private var byPhoto: [String: [Int]] = [:]
    private var byGroup: [String: Int] = [:]

    /// An empty index.
    package init() {}

    /// The earliest listing added that is the same item as `item`.
    package func match(_ item: Item) -> (listing: Listing, firstSeen: Date?)? {
      if let group = item.listing.duplicateGroup, let index = byGroup[group],
        entries[index].item.listing.id != item.listing.id
      {
        return (entries[index].item.listing, entries[index].firstSeen)
      }
      var candidates = byKey[item.key].map { [$0] } ?? []
      for photo in item.images { candidates += byPhoto[photo] ?? [] }
      let found = candidates.sorted().first { entries[$0].item.isSame(as: item) }
      return found.map { (entries[$0].item.listing, entries[$0].firstSeen) }
    }

    package mutating func add(_ item: Item, firstSeen: Date?) {
      let index = entries.count
      entries.append((item, firstSeen))
      if byKey[item.key] == nil { byKey[item.key] = index }
      if let group = item.listing.duplicateGroup, byGroup[group] == nil { byGroup[group] = index }
      for photo in item.images { byPhoto[photo, default: []].append(index) }
    }
  }
}
