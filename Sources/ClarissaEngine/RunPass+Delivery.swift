import ClarissaCore
import Foundation

/// Delivery: new, held and earlier refused listings to their channels, at least once.
extension RunPass {
  // MARK: - Delivery

  /// Sends `listings` to `channelNames`; the terminal channel delivers when the result is shown.
  mutating func deliver(_ listings: [Listing], of search: Search, to channelNames: [String])
    async
  {
    guard !listings.isEmpty, !options.dryRun else { return }
    for name in channelNames {
      guard let channel = runner.config.channels[name] else { continue }
      if channel.kind == .stdout {
        onPresent += listings.map { (search.name, $0.id, name) }
        continue
      }
      let sender = runner.channels[name] ?? UnavailableChannel(name: name, kind: channel.kind)
      do {
        try await sender.deliver(listings, search: search)
        for listing in listings {
          state.searches[search.name]?.seen[listing.id]?.deliveredTo.append(name)
        }
      } catch {
        let reason = (error as? DeliveryError)?.message ?? "\(error)"
        let reported = reason + "; retried on the next run"
        if !result.deliveryFailures.contains(reported) { result.deliveryFailures.append(reported) }
        for listing in listings {
          queueRetry(listing, of: search.name, channel: name, reason: reason)
        }
      }
    }
  }

  mutating func queueRetry(
    _ listing: Listing, of search: String, channel: String, reason: String
  ) {
    if let index = state.undelivered.firstIndex(where: {
      $0.search == search && $0.listing.id == listing.id
    }) {
      if !state.undelivered[index].channels.contains(channel) {
        state.undelivered[index].channels.append(channel)
      }
      state.undelivered[index].lastError = reason
    } else {
      state.undelivered.append(
        Undelivered(
          search: search, listing: listing, channels: [channel], attempts: 1, lastError: reason))
    }
  }

  /// Held listings whose search is out of its quiet hours now.
  mutating func releaseHeld() async {
    guard !options.dryRun, !state.held.isEmpty else { return }
    var keep: [HeldListing] = []
    var release: [String: [Listing]] = [:]
    for entry in state.held {
      guard let search = runner.config.searches.first(where: { $0.name == entry.search }) else {
        continue
      }
      if activeWindows(search).contains(where: { $0.mode == .hold }) {
        keep.append(entry)
      } else {
        release[entry.search, default: []].append(entry.listing)
      }
    }
    state.held = keep
    for search in runner.config.searches {
      guard let listings = release[search.name] else { continue }
      if let index = result.searches.firstIndex(where: { $0.name == search.name }) {
        result.searches[index].delivered += listings
      }
      await deliver(listings, of: search, to: search.notify)
    }
  }

  /// Deliveries that failed on an earlier run, tried again (up to a cap).
  mutating func retryUndelivered() async {
    guard !options.dryRun, !state.undelivered.isEmpty else { return }
    let pending = state.undelivered
    state.undelivered = []
    for entry in pending {
      guard let search = runner.config.searches.first(where: { $0.name == entry.search }) else {
        continue
      }
      let channels = entry.channels.filter { runner.config.channels[$0] != nil }
      let before = state.undelivered.count
      await deliver([entry.listing], of: search, to: channels)
      // A new entry means it failed again: carry the attempt count forward, or give up.
      if state.undelivered.count > before,
        let index = state.undelivered.lastIndex(where: { $0.listing.id == entry.listing.id })
      {
        state.undelivered[index].attempts = entry.attempts + 1
        if entry.attempts + 1 >= Self.maxDeliveryAttempts {
          result.deliveryFailures.append(
            "gave up on '\(entry.listing.title)' (\(entry.search)) after \(entry.attempts + 1) attempts: \(entry.lastError)"
          )
          state.undelivered.remove(at: index)
        }
      } else if let index = result.searches.firstIndex(where: { $0.name == search.name }) {
        result.searches[index].delivered.append(entry.listing)
      }
    }
  }
}
