public import ClarissaCore
public import Foundation
public import ListingStore
internal import Synchronization

/// Deal context for the listings of one delivery batch, a report or a page (``DealContext``):
/// each search's similar listings are read once (one search's 90 days may be thousands of
/// listings), each listing's story by the repost index.
public final class DealContextBook: Sendable {
  private let memory: any ListingMemory
  private let now: Date
  private let timeZone: TimeZone
  /// Each search's market, read once.
  private let markets = Mutex<[String: DealMarket]>([:])
  /// Markets kept beyond this book, with the store's stamp they were read at (`serve`'s pages).
  private let kept: (cache: DealMarketCache, stamp: Date?)?

  /// A book reading `memory` as of `now`; dates are written in `timeZone`. With `cache`, a
  /// search's market read at the same `stamp` (the store's last attempt) is taken from it.
  public init(
    memory: any ListingMemory, now: Date, timeZone: TimeZone = .current,
    cache: DealMarketCache? = nil, stamp: Date? = nil
  ) {
    self.memory = memory
    self.now = now
    self.timeZone = timeZone
    self.kept = cache.map { ($0, stamp) }
  }

  /// The context lines of each of `listings` (found by `search`); none where nothing is said.
  public func lines(for listings: [Listing], search: String) throws -> [ListingKey: [String]] {
    guard !listings.isEmpty else { return [:] }
    let market = try market(of: search)
    let stories = try memory.stories(search: search, keys: listings.map(\.key))
    var result: [ListingKey: [String]] = [:]
    for listing in listings {
      let lines = DealContext.lines(
        listing, story: stories[listing.key], market: market, now: now, timeZone: timeZone)
      if !lines.isEmpty { result[listing.key] = lines }
    }
    return result
  }

  /// `listings` with their context and the person's marks (starred, the note) in
  /// ``Listing/alert`` (other details of the alert kept), and the warning signs the store keeps
  /// in ``Listing/signals``; `marks` when the caller read them already (a listing's story holds
  /// its own), else read here.
  public func annotated(
    _ listings: [Listing], search: String, marks known: [ListingKey: ListingMarks]? = nil
  ) throws -> [Listing] {
    let found = try lines(for: listings, search: search)
    let marks = try known ?? memory.marks(of: listings.map(\.key))
    let signals = try memory.signals(of: listings.map(\.key))
    return listings.map { listing in
      let lines = found[listing.key]
      let mark = marks[listing.key]
      var listing = listing
      if let signs = signals[listing.key] { listing.signals = signs }
      guard lines != nil || mark?.starred == true || mark?.note != nil else { return listing }
      var alert = listing.alert ?? ListingAlert()
      if let lines { alert.context = lines }
      alert.starred = mark?.starred ?? false
      alert.note = mark?.note
      listing.alert = alert
      return listing
    }
  }

  /// `history` with its listing's context, as the first search that saw it (by name) has it.
  public func annotated(_ history: ListingHistory) throws -> ListingHistory {
    guard let search = history.searches.first?.search else { return history }
    var history = history
    let key = history.listing.key
    history.listing = try annotated(
      [history.listing], search: search, marks: history.marks.map { [key: $0] } ?? [:])[0]
    return history
  }

  private func market(of search: String) throws -> DealMarket {
    if let known = markets.withLock({ $0[search] }) { return known }
    let since = now.addingTimeInterval(-DealContext.window)
    let fresh = { DealMarket(try self.memory.peers(search: search, since: since)) }
    let read =
      try kept.map { try $0.cache.market(of: search, stamp: $0.stamp, now: now, read: fresh) }
      ?? fresh()
    markets.withLock { $0[search] = read }
    return read
  }
}
