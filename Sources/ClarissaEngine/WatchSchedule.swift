public import ClarissaCore
public import Foundation
public import ListingStore

/// When `watch` should wake next: the earliest time a search falls due (for a search in a `skip`
/// window, when the window ends), the end of a quiet-hours window that holds listings, or a retry
/// of refused deliveries, with a little jitter so that many watchers never hit a site in step.
public enum WatchSchedule {
  /// The next wake-up after `now`, at least one second away and at most an hour.
  public static func nextWake(
    config: Config, memory: any ListingMemory, now: Date, jitter: Double = Double.random(in: 0...1)
  ) throws -> Date {
    let searches = try memory.searches(config.searches.map(\.name))
    let held = Set(try memory.held().map(\.search))
    // Asked without claiming: a worker's claim is for the deliveries it is about to send.
    let owed = try memory.hasOwedDeliveries(maxAttempts: Deliver.maxAttempts)
    let wake = nextWake(
      config: config, searches: searches, held: held, owed: owed, now: now, jitter: jitter)
    // A scheduled digest due before then wakes it (docs/notifications.md).
    let digest = try DigestTiming.nextWake(config: config, memory: memory, now: now)
    return min(wake, max(digest ?? wake, now.addingTimeInterval(1)))
  }

  /// The next wake-up, from the searches' memory, the searches with held listings, and whether
  /// deliveries are owed.
  public static func nextWake(
    config: Config, searches: [String: SearchMemory], held heldSearches: Set<String>, owed: Bool,
    now: Date, jitter: Double = Double.random(in: 0...1)
  ) -> Date {
    var candidates: [Date] = []
    for search in config.searches where search.enabled {
      let interval = search.interval.timeInterval
      let spread = min(30, interval * 0.05) * jitter
      var due = searches[search.name]?.nextDue(interval: interval) ?? now
      // A search inside a `skip` window is not run: wake when the window ends, not every second.
      for name in search.blackout {
        guard let window = config.blackouts[name], window.mode == .skip,
          let end = window.occurrence(containing: now)?.end
        else { continue }
        due = max(due, end.addingTimeInterval(1))
      }
      candidates.append(due.addingTimeInterval(spread))
    }
    for search in config.searches where heldSearches.contains(search.name) {
      for name in search.blackout {
        if let end = config.blackouts[name]?.occurrence(containing: now)?.end {
          candidates.append(end.addingTimeInterval(1))
        }
      }
    }
    if owed { candidates.append(now.addingTimeInterval(300)) }
    let earliest = candidates.min() ?? now.addingTimeInterval(3600)
    return min(max(earliest, now.addingTimeInterval(1)), now.addingTimeInterval(3600))
  }
}
