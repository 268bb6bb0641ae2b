internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// Which searches' sites may pass over the items of their last answer that come again
/// unchanged, and which items (docs/performance.md, "Unchanged items"). A passed-over listing is
/// seen, unchanged, and nothing else: so only where nothing else could be made of it.
enum UnchangedReading {
  /// Per search whose site passes over unchanged items, the items it may pass over: none for a
  /// search primed now (every listing is recorded as found), none when the last answer is not
  /// the last run's (a run that saw nothing since: its listings may be `back`), none when it
  /// came before the repost window (a new listing that repeats one of them is then found by
  /// this run's own listings, which must be read).
  static func known(
    _ planned: [PlannedSearch], sites: SiteCatalog, memory: any ListingMemory,
    options: RunOptions
  ) throws -> [String: KnownItems] {
    var known: [String: KnownItems] = [:]
    guard options.passesUnchanged else { return known }
    for entry in planned where sites.site(entry.search.site)?.passesUnchangedItems == true {
      var ids: [String: String] = [:]
      if !entry.prime {
        let items = try memory.unchangedItems(search: entry.search.name, site: entry.search.site)
        let since = options.now.addingTimeInterval(-entry.search.repostWindow.timeInterval)
        if let answered = items.answeredAt, answered >= since,
          answered >= entry.memory?.lastRun ?? answered
        {
          ids = items.ids
        }
      }
      known[entry.search.name] = KnownItems(ids: ids, salt: salt(options.limits))
    }
    return known
  }

  /// The limits a listing is cut to: an item read under other limits is read again.
  static func salt(_ limits: Limits) -> String {
    "limits \(limits.itemsPerSource) \(limits.titleLength) \(limits.placeLength) "
      + "\(limits.descriptionLength)"
  }
}
