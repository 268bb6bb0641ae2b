package import ClarissaCore
internal import Foundation

/// Photos in the folding rules (``Fingerprint``): one photo is one hash within
/// ``PhotoMatch/maxDistance`` bits where both have a hash, one site id otherwise
/// (``ListingPhoto``), for the evidence and for the stock-photo rule alike.
extension Fingerprint {
  /// The photos among `listings` that are a stock photo, counting for nothing: one shared by
  /// three listings or more that are not one item by what they say (three titles or more,
  /// more than one address, or three prices or more): a landlord's campaign picture on every
  /// flat, a shop's logo. A repost chain shares its photo with one address, and a title or
  /// price changed once (the bundled replay's iPad Air, posted three times under two titles).
  /// "Shared" is by ``ListingPhoto/same(as:)``: a campaign picture re-encoded for each flat is
  /// one photo when the photos' `hashes` (by address) are known. Returns the photo ids (a
  /// stock photo's copies each by its own id).
  package static func stockPhotos(_ listings: [Listing], hashes: [String: UInt64] = [:])
    -> Set<String>
  {
    stockPhotos(listings.map { Item($0, hashes: hashes) })
  }

  /// ``stockPhotos(_:hashes:)`` of items. Photos with a hash are found by their bands
  /// (``PhotoMatch/bands(_:)``), at most ``bandLimit`` per band: the cost is bounded by the
  /// photos, not by their pairs.
  static func stockPhotos(_ items: [Item]) -> Set<String> {
    var holders: [String: Set<Int>] = [:]
    var hashed: [(hash: UInt64, id: String, item: Int)] = []
    var byBand: [Int: [Int]] = [:]
    for (index, item) in items.enumerated() {
      for photo in item.photos {
        holders[photo.id, default: []].insert(index)
        guard let hash = photo.hash else { continue }
        for band in PhotoMatch.bands(hash) where byBand[band, default: []].count < bandLimit {
          byBand[band, default: []].append(hashed.count)
        }
        hashed.append((hash, photo.id, index))
      }
    }
    // A photo's holders take in those holding a photo within 5 bits of it.
    for entry in hashed {
      var near = Set<Int>()
      for band in PhotoMatch.bands(entry.hash) {
        for other in byBand[band] ?? [] where PhotoMatch.same(hashed[other].hash, entry.hash) {
          near.insert(hashed[other].item)
        }
      }
      holders[entry.id, default: []].formUnion(near)
    }
    var stock = Set<String>()
    for (photo, indices) in holders where Set(indices.map { items[$0].listing.id }).count >= 3 {
      let sharing = indices.map { items[$0] }
      let titles = Set(sharing.map(\.title).filter { !$0.isEmpty })
      let places = Set(sharing.compactMap(\.address))
      let prices = Set(sharing.compactMap(\.listing.price))
      if titles.count > 2 || places.count > 1 || prices.count > 2 { stock.insert(photo) }
    }
    return stock
  }

  /// Photos with a hash read per band, at most, by ``stockPhotos(_:)``.
  static let bandLimit = 256
}

extension Fingerprint.Item {
  /// The first (by id) of the item's photos that is one of `other`'s, neither a stock photo.
  func sharedPhoto(_ other: Fingerprint.Item, stock: Set<String>) -> String? {
    photos.filter { mine in
      !stock.contains(mine.id)
        && other.photos.contains { !stock.contains($0.id) && mine.same(as: $0) }
    }.map(\.id).min()
  }
}

extension ListingPhoto {
  /// Its band keys (``PhotoMatch/bands(_:)``); none without a hash.
  var bandKeys: [Int] { hash.map(PhotoMatch.bands) ?? [] }
}
