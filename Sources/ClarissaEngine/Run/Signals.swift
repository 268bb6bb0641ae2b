internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Presentation

/// Stage 4b, after judge and before act: the warning signs of a search's new listings
/// (``ListingSignal``, the rules in `WarningSigns`, module Presentation): a photo shown by
/// another listing in another place or at another price (``ListingMemory/photoTwins(of:since:)``),
/// a price far below the search's comparable listings, scam words, a new seller; and of its reposts, how many times
/// the item was posted. A listing with a sign of a kind the search drops (`signals: {drop:
/// [...]}`) is `filtered`, the sign its reason; the others keep their signs, which the record
/// stores. Nothing is asked of the store unless a listing is new: the market is read once per
/// search answer with a new priced listing, a repost's story by the repost index.
enum Signals {
  /// `judgements` with each new listing's (and repost's) signs set, those a dropped kind
  /// names filtered; and the signs to store, by listing.
  static func apply(
    _ judgements: [Judgement], of search: Search, memory: any ListingMemory, now: Date
  ) throws -> (judgements: [Judgement], signals: [ListingKey: [ListingSignal]]) {
    var judgements = judgements
    var stored: [ListingKey: [ListingSignal]] = [:]
    var market: DealMarket?
    // The listings showing a new listing's photos, read once for the search's new listings.
    let fresh = judgements.filter { $0.verdict == .new }.map(\.listing)
    let twins =
      fresh.isEmpty
      ? [:]
      : try memory.photoTwins(of: fresh, since: now.addingTimeInterval(-DealContext.window))
    for index in judgements.indices {
      let judgement = judgements[index]
      var signals: [ListingSignal] = []
      switch judgement.verdict {
      case .new:
        if judgement.listing.price != nil, market == nil {
          market = DealMarket(
            try memory.peers(
              search: search.name, since: now.addingTimeInterval(-DealContext.window)))
        }
        signals = found(judgement.listing, search: search, market: market, now: now)
        if let photo = WarningSigns.photoElsewhere(
          judgement.listing, others: twins[judgement.listing.key] ?? [])
        {
          signals.insert(photo, at: 0)
        }
      case .repost(of: let original, firstSeen: .some):
        let root = ListingKey(site: judgement.listing.site, id: original)
        let story = try memory.stories(search: search.name, keys: [root])[root]
        signals = [WarningSigns.reposted(story, adding: 1, now: now)].compactMap { $0 }
      default:
        continue
      }
      guard !signals.isEmpty else { continue }
      judgements[index].listing.signals = signals
      if judgement.verdict == .new,
        let dropped = signals.first(where: { search.signals.drop.contains($0.kind) })
      {
        judgements[index].verdict = .filtered
        judgements[index].reason = "signals.drop: \(dropped.kind.rawValue) (\(dropped.text))"
        continue
      }
      stored[judgement.listing.key] = signals
    }
    return (judgements, stored)
  }

  /// A new listing's signs, in the order of ``ListingSignal/Kind/allCases``.
  static func found(_ listing: Listing, search: Search, market: DealMarket?, now: Date)
    -> [ListingSignal]
  {
    [
      market.flatMap { WarningSigns.lowPrice(listing, market: $0) },
      WarningSigns.scamWords(listing, extra: search.signals.words),
      WarningSigns.newSeller(listing, now: now),
    ].compactMap { $0 }
  }
}
