import ClarissaCore
import Foundation
import ListingStore

/// What a run gathers as its searches are judged, one after another.
struct RunState {
  /// The report so far.
  var result: RunResult
  /// Per search, the verdict on every listing its sources returned.
  var judged: [String: [Judgement]] = [:]
  /// Per search, this run's new and changed listings (reported as new when delivered).
  var fresh: [String: Set<ListingKey>] = [:]
  /// The deliveries of the run (nil for a dry run).
  var delivery: Deliver?
  /// The user's geocoder, for listings with an address and no coordinates; nil: none.
  var geocoding: Geocoding?
}

extension RunResult {
  /// The deliveries' receipts added to the searches' lines; returns the terminal's deliveries
  /// (done when the report is shown).
  mutating func apply(_ receipts: Receipts) -> [OwedDelivery] {
    for index in searches.indices {
      searches[index].delivered += receipts.delivered[searches[index].name] ?? []
      searches[index].notes += receipts.notes[searches[index].name] ?? []
    }
    deliveryFailures += receipts.failures
    channels = receipts.channels
    return receipts.terminal
  }
}
