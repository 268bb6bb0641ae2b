internal import ClarissaCore
internal import ListingStore

/// One delivery's identity within a run: the search that found the listing (as the store names
/// it), the listing, and the channel. What a run tried, and what a channel accepted, are sets
/// of these.
struct DeliveryKey: Hashable, Sendable {
  /// The search that found the listing.
  let search: String
  /// The listing.
  let listing: ListingKey
  /// The channel's name.
  let channel: String

  /// A key of its parts.
  init(search: String, listing: ListingKey, channel: String) {
    self.search = search
    self.listing = listing
    self.channel = channel
  }

  /// The key of an owed delivery.
  init(_ owed: OwedDelivery) {
    self.init(search: owed.search, listing: owed.listing.key, channel: owed.channel)
  }
}

/// One batch's identity: a search's deliveries to one channel (``Limits/announcePerSearch`` is
/// counted per batch key over the run).
struct BatchKey: Hashable, Sendable {
  /// The search, as the store names it.
  let search: String
  /// The channel's name.
  let channel: String
}
