internal import ClarissaCore
internal import ListingStore

/// What a run gathers as its searches are judged, one after another, each addressed by its
/// slot (``PlannedSearch/slot``).
struct RunState {
  /// The report so far: per slot, the search's outcome.
  var result: RunResult
  /// Per slot, the verdict on every listing its sources returned; nil: not judged this run.
  var judged: [[Judgement]?]
  /// The deliveries of the run (nil for a dry run).
  var delivery: Deliver?
  /// The user's geocoder, for listings with an address and no coordinates; nil: none.
  var geocoding: Geocoding?
  /// The commute stage, its engines shared by the run's searches; nil: no search has
  /// `commute:` limits.
  var commuting: Commuting?
  /// Photos the run may still fetch for fingerprints (``PhotoSettings/perRun``).
  var photosLeft = 0

  /// A run with nothing judged yet.
  init(result: RunResult, delivery: Deliver?) {
    self.result = result
    self.judged = Array(repeating: nil, count: result.searches.count)
    self.delivery = delivery
  }

  /// The judgements by search, for ``PendingRun/judgements`` (what `explain` prints).
  var judgementsByName: [String: [Judgement]] {
    var byName: [String: [Judgement]] = [:]
    for (slot, judged) in judged.enumerated() {
      if let judged { byName[result.searches[slot].name, default: []] += judged }
    }
    return byName
  }
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
