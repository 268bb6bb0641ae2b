package import ClarissaCore
package import Foundation

/// "The same item" under another id: a repost, or a cross-post to another area or category.
/// Measured on a real sfbay page (Fixtures/craigslist/sfbay-sss-sapi-1.json): of 360 rows, 69 in
/// 23 groups share a title and a price; within a group they share photos or have none, except
/// sellers who posted the same item again with new photos. Different items that share a title
/// differ in price and photos. So a listing repeats one seen before when their titles (folded)
/// are equal and so are their prices, or when they share a photo and their titles or prices
/// agree. Evidence is asked for, not assumed (issue 40: a landlord's 83 flats, one campaign
/// photo on each and a stock title on many, were folded into 59): a photo that three listings
/// or more share while saying different things is a stock photo and counts for nothing; two
/// listings that give two addresses, floor areas more than 1 m² apart, or two numbers of rooms
/// or bedrooms are never one item; and two ids of one answer, shown side
/// by side, fold only on the same title and price, a photo and the price, the same address and
/// price (with the title or a photo), the same map pin with title and photo, or the same price
/// and description. The place text is not compared: a
/// cross-post to another subarea is the same item. Where the site says itself which posts are
/// one item (Craigslist sapi's duplicate group), that comes first: it also joins the posts
/// whose price was changed between them. A site that declares `ids: unique` is never folded.
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
    listing.imageURLs.map(image).filter { !$0.isEmpty }
  }

  /// The site's id of one photo address (``images(_:)``).
  package static func image(_ url: String) -> String {
    guard url.contains("images.craigslist.org/") else { return url }
    let name = url.split(separator: "/").last.map(String.init) ?? url
    return name.split(separator: "_").dropLast().joined(separator: "_")
  }

  /// The listing's photos as the rules compare them: each id with its hash when `hashes`
  /// (by photo address) has one.
  package static func photos(_ listing: Listing, hashes: [String: UInt64]) -> [ListingPhoto] {
    var seen = Set<String>()
    return listing.imageURLs.compactMap { url in
      let id = image(url)
      guard !id.isEmpty, seen.insert(id).inserted else { return nil }
      return ListingPhoto(id: id, hash: hashes[url])
    }
  }

  /// Why two listings were taken for one item: what the reports name ("shared photo X").
  package enum Evidence: Sendable, Equatable {
    /// The site said so (Craigslist sapi's duplicate group).
    case siteGroup
    /// The same title and price.
    case titleAndPrice
    /// A photo in common (not a stock photo), with the price (or, on a later run, the title).
    case photo(String)
    /// The same address, with the title or a photo; or the same map pin, with both.
    case place
    /// The same price and description.
    case priceAndDescription

    /// In words, for `inspect`, `sites check` and `explain`.
    package var words: String {
      switch self {
      case .siteGroup: return "the site's duplicate group"
      case .titleAndPrice: return "same title and price"
      case .photo(let photo): return "shared photo \(Fingerprint.photoName(photo))"
      case .place: return "same address or map pin"
      case .priceAndDescription: return "same price and description"
      }
    }

    /// What kind of evidence, for a count: a photo's name left out.
    package var kind: String {
      if case .photo = self { return "shared photo" }
      return words
    }
  }

  /// A photo's address shortened to its file name, for a report line.
  package static func photoName(_ photo: String) -> String {
    let name = photo.split(separator: "/").last.map(String.init) ?? photo
    return SafeText.cut(SafeText.line(name), to: 60) ?? SafeText.line(name)
  }

  /// Whether two listings are the same item, and why: a repost of a listing the search saw
  /// before (`inOneAnswer` false), or two ids of one answer (true), which must show more.
  package static func sameItem(
    _ first: Listing, _ second: Listing, inOneAnswer: Bool = false, stock: Set<String> = [],
    hashes: [String: UInt64] = [:]
  ) -> Evidence? {
    Item(first, hashes: hashes).evidence(
      Item(second, hashes: hashes), inOneAnswer: inOneAnswer, stock: stock)
  }

  /// Two map pins closer than this are one pin. Sites place pins roughly (Craigslist at a
  /// neighbourhood's point, cross-posts at another subarea's), so a pin alone neither joins
  /// two listings nor keeps them apart: only an address does.
  package static let samePinMetres = 10.0

  /// A listing with what the rule compares, worked out once.
  package struct Item {
    /// Whether the two say they are two homes: floor areas more than 1 m² apart, or another
    /// number of rooms or bedrooms (a new building's flats share an address and a title).
    func differsInFacts(_ other: Item) -> Bool {
      let (mine, theirs) = (listing, other.listing)
      if let area = mine.floorArea, let other = theirs.floorArea, abs(area - other) > 1 {
        return true
      }
      if let rooms = mine.rooms, let other = theirs.rooms, rooms != other { return true }
      if let bedrooms = mine.bedrooms, let other = theirs.bedrooms, bedrooms != other {
        return true
      }
      return false
    }

    let listing: Listing
    let title: String
    let key: String
    let images: Set<String>
    /// Its photos, each with its hash when known (``ListingPhoto``).
    let photos: [ListingPhoto]
    /// The address (with its postcode) folded; nil when the listing gives none.
    let address: String?
    /// The description folded, when the listing has it as text of five words or more.
    let description: String?

    /// The listing's item, its photos' hashes taken from `hashes` (by photo address).
    package init(_ listing: Listing, hashes: [String: UInt64] = [:]) {
      self.listing = listing
      title = Fingerprint.title(listing.title)
      key = Fingerprint.key(listing)
      images = Set(Fingerprint.images(listing))
      photos = Fingerprint.photos(listing, hashes: hashes)
      let street = Fingerprint.title(listing.address ?? "")
      let code = Fingerprint.title(listing.postcode ?? "")
      address = street.isEmpty ? nil : code.isEmpty ? street : "\(code) \(street)"
      // A description of a few words ("20 EUR", "see photos") tells two listings apart from
      // nothing: five words at least.
      let text = listing.isDescriptionPending ? "" : Fingerprint.title(listing.description)
      description = text.split(separator: " ").count < 5 ? nil : text
    }

    /// Whether `other` is the same item, and why (the site's duplicate group is
    /// ``RunIndex``'s to ask). Two listings at two addresses never are. A repost must share
    /// its title and price, or a photo (not in `stock`) and one of them, or its address and
    /// its title or a photo. Two ids of one answer are on the page side by side: a photo and a
    /// title are not enough there (a landlord's flats), so they must share title and price, a
    /// photo and the price, their address (or pin, with title and photo), or price and
    /// description.
    func evidence(_ other: Item, inOneAnswer: Bool, stock: Set<String>) -> Evidence? {
      guard listing.site == other.listing.site, listing.id != other.listing.id else { return nil }
      if let address, let theirs = other.address, address != theirs { return nil }
      guard !differsInFacts(other) else { return nil }
      let sameTitle = title == other.title && !title.isEmpty
      let samePrice =
        listing.price == other.listing.price && listing.currency == other.listing.currency
      let photo = sharedPhoto(other, stock: stock)
      let samePin =
        listing.coordinates.flatMap { mine in
          other.listing.coordinates.map { mine.distance(to: $0).metres <= samePinMetres }
        } ?? false
      if sameTitle && samePrice { return .titleAndPrice }
      // Side by side, two units of one building at two prices are two units (the shipped
      // immoscout, willhaben and wg-gesucht answers each hold such a pair).
      if address != nil && address == other.address && (sameTitle || photo != nil)
        && (samePrice || !inOneAnswer)
      {
        return .place
      }
      if samePin && sameTitle && photo != nil { return .place }
      if samePrice, listing.price != nil, let description, description == other.description {
        return .priceAndDescription
      }
      // A photo and the price are more than a photo and a title: a seller who retitled an ad
      // (the bundled replay's iPad Air with its Apple Pencil, two of three photos the same).
      if let photo, samePrice || (sameTitle && !inOneAnswer) { return .photo(photo) }
      return nil
    }
  }

  /// The listings of one answer (or one run) so far, found by what can make two the same
  /// item: the site's own duplicate group first (Craigslist groups reposts whose price or
  /// photos changed), then those that share a title, a photo, an address or a description
  /// (then checked by the rule, ``Item/evidence(_:inOneAnswer:stock:)``). The earliest added
  /// wins. Each look-up checks at most ``bucketLimit`` listings of a title, photo, address or
  /// description: past that many they are a stock title or photo, and an answer of 20,000
  /// listings with one title costs no more than one of 64.
  package struct RunIndex {
    private var entries: [(item: Item, firstSeen: Date?)] = []
    private var buckets: [String: [Int]] = [:]
    private var byGroup: [String: Int] = [:]
    /// Whether the listings added and matched are of one answer (two ids side by side).
    private let inOneAnswer: Bool
    /// Photos that count for nothing (``Fingerprint/stockPhotos(_:)``).
    private let stock: Set<String>

    /// Listings checked per bucket, at most.
    static let bucketLimit = 64

    /// An empty index, for listings of one answer or not, with the answer's stock photos.
    package init(inOneAnswer: Bool = false, stock: Set<String> = []) {
      self.inOneAnswer = inOneAnswer
      self.stock = stock
    }

    /// The earliest listing added that is the same item as `item`, and why.
    package func match(_ item: Item) -> (listing: Listing, firstSeen: Date?, evidence: Evidence)? {
      if let group = item.listing.duplicateGroup, let index = byGroup[group],
        entries[index].item.listing.id != item.listing.id
      {
        return (entries[index].item.listing, entries[index].firstSeen, .siteGroup)
      }
      var candidates = Set<Int>()
      for key in Self.keys(item) { candidates.formUnion(buckets[key] ?? []) }
      for index in candidates.sorted() {
        let entry = entries[index]
        if let evidence = entry.item.evidence(item, inOneAnswer: inOneAnswer, stock: stock) {
          return (entry.item.listing, entry.firstSeen, evidence)
        }
      }
      return nil
    }

    package mutating func add(_ item: Item, firstSeen: Date?) {
      let index = entries.count
      entries.append((item, firstSeen))
      if let group = item.listing.duplicateGroup, byGroup[group] == nil { byGroup[group] = index }
      for key in Self.keys(item) where buckets[key, default: []].count < Self.bucketLimit {
        buckets[key, default: []].append(index)
      }
    }

    /// The buckets an item is found by: every evidence but the site's group needs one of them.
    private static func keys(_ item: Item) -> [String] {
      var keys = item.images.map { "p\($0)" }
      // A photo with a hash is found by its bands too: one within 5 bits shares one of them.
      for photo in item.photos { keys += photo.bandKeys.map { "h\($0)" } }
      if !item.title.isEmpty { keys.append("t\(item.title)") }
      if let address = item.address { keys.append("a\(address)") }
      if let description = item.description { keys.append("d\(description)") }
      return keys
    }
  }

  /// What a run would fold of one answer, and why: each folded listing with the one it
  /// repeats and the evidence (for `inspect` and `sites check`). None where the site's ids are
  /// unique.
  package static func folds(in listings: [Listing], idsUnique: Bool) -> [(
    listing: Listing, original: Listing, evidence: Evidence
  )] {
    guard !idsUnique else { return [] }
    let items = listings.map { Item($0) }
    var index = RunIndex(inOneAnswer: true, stock: stockPhotos(items))
    var folded: [(listing: Listing, original: Listing, evidence: Evidence)] = []
    for item in items {
      if let match = index.match(item) {
        folded.append((item.listing, match.listing, match.evidence))
      } else {
        index.add(item, firstSeen: nil)
      }
    }
    return folded
  }

  /// One line on ``folds(in:idsUnique:)``: "would fold 3 of 83 as reposts: same title and
  /// price (2), the site's duplicate group (1)", or that it would fold none; and the stock
  /// photos, which count for nothing ("not evidence: stock photo CAMP.jpg on 83 listings").
  package static func foldLine(_ listings: [Listing], idsUnique: Bool) -> String {
    if idsUnique { return "would fold none of \(listings.count) as reposts: ids: unique" }
    let folded = folds(in: listings, idsUnique: false)
    var line = "would fold none of \(listings.count) as reposts"
    if !folded.isEmpty {
      var counts: [String: Int] = [:]
      for fold in folded { counts[fold.evidence.kind, default: 0] += 1 }
      let reasons = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        .prefix(4).map { "\($0.key) (\($0.value))" }
      line =
        "would fold \(folded.count) of \(listings.count) as reposts: "
        + reasons.joined(separator: ", ") + (counts.count > 4 ? ", ..." : "")
    }
    let stock = stockPhotos(listings)
    guard !stock.isEmpty else { return line }
    let holders = stock.sorted().map { photo in
      (photo, listings.filter { Set(images($0)).contains(photo) }.count)
    }.sorted { $0.1 > $1.1 }
    let named = holders.prefix(2).map { "\(photoName($0.0)) on \($0.1) listings" }
    return line + "; not evidence: stock photo" + (stock.count > 1 ? "s " : " ")
      + named.joined(separator: ", ") + (stock.count > 2 ? ", ..." : "")
  }
}
