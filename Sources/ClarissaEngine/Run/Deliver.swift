import ClarissaCore
import Foundation

/// What the delivery stage did.
struct Receipts: Sendable {
  /// Listings found earlier and delivered this run (released from quiet hours, or retried), by
  /// search.
  var delivered: [String: [Listing]] = [:]
  /// Refusals, said once each, for the report.
  var failures: [String] = []
  /// Deliveries owed to the terminal channel: done when the report is shown.
  var terminal: [OwedDelivery] = []
  /// Per channel: deliveries accepted and refused this run.
  var channels: [String: RunResult.ChannelTally] = [:]
}

/// Stage 5: every owed delivery to its channel, one batch per search and channel. A delivery is
/// recorded the moment its channel accepts it, in its own transaction; a partly accepted batch
/// records what went through, and only the rest is tried again on the next run.
struct Deliver {
  /// Refused this many times, a delivery is given up (and reported).
  static let maxAttempts = 10

  let config: Config
  let channels: [String: any DeliveryChannel]
  let memory: any ListingMemory
  let now: Date

  /// Delivers what is owed; `fresh` are this run's new listings per search (reported as new,
  /// not as found earlier).
  func run(fresh: [String: Set<ListingKey>]) async throws -> Receipts {
    var receipts = Receipts()
    let searches = Dictionary(config.searches.map { ($0.name, $0) }) { first, _ in first }
    for batch in try batches() {
      guard let search = searches[batch.search], let channel = config.channels[batch.channel]
      else { continue }
      let listings = batch.owed.map(\.listing)
      if channel.kind == .stdout {
        receipts.terminal += batch.owed
        note(listings, of: search.name, fresh: fresh, in: &receipts)
        continue
      }
      let accepted = try await send(batch, search: search, kind: channel.kind, to: &receipts)
      receipts.channels[batch.channel, default: .init()].delivered += accepted.count
      note(listings.filter { accepted.contains($0.key) }, of: search.name, fresh: fresh,
        in: &receipts)
    }
    return receipts
  }

  /// Owed deliveries grouped by search and channel, in the order they were owed.
  private func batches() throws -> [(search: String, channel: String, owed: [OwedDelivery])] {
    var order: [String] = []
    var groups: [String: (search: String, channel: String, owed: [OwedDelivery])] = [:]
    for owed in try memory.owedDeliveries(maxAttempts: Self.maxAttempts) {
      let id = owed.search + "\u{0}" + owed.channel
      if groups[id] == nil {
        order.append(id)
        groups[id] = (owed.search, owed.channel, [])
      }
      groups[id]?.owed.append(owed)
    }
    return order.compactMap { groups[$0] }
  }

  /// Sends one batch; returns the keys the channel accepted. Each accepted message is recorded
  /// in the store the moment the channel says so, before the next is sent.
  private func send(
    _ batch: (search: String, channel: String, owed: [OwedDelivery]), search: Search,
    kind: Channel.Kind, to receipts: inout Receipts
  ) async throws -> Set<ListingKey> {
    let sender = channels[batch.channel] ?? UnavailableChannel(name: batch.channel, kind: kind)
    let book = ReceiptBook()
    let (memory, now) = (self.memory, self.now)
    do {
      try await sender.deliver(batch.owed.map(\.listing), search: search) { accepted in
        do {
          for listing in accepted {
            try memory.markDelivered(
              search: batch.search, key: listing.key, channel: batch.channel, at: now)
          }
        } catch {
          throw ReceiptFailure(underlying: error)
        }
        book.add(accepted.map(\.key))
      }
    } catch let failure as ReceiptFailure {
      throw failure.underlying
    } catch {
      let reason = (error as? DeliveryError)?.message ?? "\(error)"
      let accepted = book.keys
      try refuse(batch.owed.filter { !accepted.contains($0.listing.key) }, reason, &receipts)
    }
    return book.keys
  }

  /// Records refusals; a delivery refused too often is given up, and said so.
  private func refuse(_ owed: [OwedDelivery], _ reason: String, _ receipts: inout Receipts) throws
  {
    let reported = reason + "; retried on the next run"
    if !receipts.failures.contains(reported) { receipts.failures.append(reported) }
    for entry in owed {
      receipts.channels[entry.channel, default: .init()].failed += 1
      let attempts = try memory.markFailed(
        search: entry.search, key: entry.listing.key, channel: entry.channel, error: reason,
        at: now)
      if attempts >= Self.maxAttempts {
        receipts.failures.append(
          "gave up on '\(entry.listing.title)' (\(entry.search)) after \(attempts) attempts: "
            + reason)
      }
    }
  }

  /// Listings found earlier that reached a channel now, once each per search.
  private func note(
    _ listings: [Listing], of search: String, fresh: [String: Set<ListingKey>],
    in receipts: inout Receipts
  ) {
    let new = fresh[search] ?? []
    for listing in listings where !new.contains(listing.key) {
      if receipts.delivered[search]?.contains(where: { $0.key == listing.key }) != true {
        receipts.delivered[search, default: []].append(listing)
      }
    }
  }
}

/// The keys a channel accepted, gathered from its receipts.
private final class ReceiptBook: @unchecked Sendable {
  private let lock = NSLock()
  private var accepted = Set<ListingKey>()

  func add(_ keys: [ListingKey]) { lock.withLock { accepted.formUnion(keys) } }
  var keys: Set<ListingKey> { lock.withLock { accepted } }
}

/// The store could not record a receipt: the run stops (exit 5), the channel is not to blame.
private struct ReceiptFailure: Error {
  let underlying: any Error
}
