internal import Channels
internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Presentation
internal import Synchronization

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
  /// Per search: what the announcement limits summed up, for the search's line.
  var notes: [String: [String]] = [:]
}

/// Stage 5: every owed delivery to its channel, one batch per search and channel (a due
/// scheduled digest: one batch per channel, every search's part of it in one message). A run
/// delivers each search's new listings as soon as that search is judged and recorded (its
/// deliveries are committed then), while other searches are still being fetched; at its end it
/// delivers what else is owed (refused before, released from quiet hours) and the digests. A
/// delivery is recorded the moment its channel accepts it, in its own transaction; a partly
/// accepted batch records what went through, and only the rest is tried again on the next run.
struct Deliver {
  /// Refused this many times, a delivery is given up (and reported).
  static let maxAttempts = OwedDelivery.maxAttempts

  let config: Config
  let channels: [String: any DeliveryChannel]
  let memory: any ListingMemory
  /// When the run began: the digests due and the deal context are reckoned from it.
  let now: Date
  /// The run's clock: an acceptance or a refusal is recorded when it happens.
  let clock: @Sendable () -> Date
  /// The deal context of what is sent, each search's market read once a run.
  let contexts: DealContextBook
  /// What was delivered and refused so far this run.
  private(set) var receipts = Receipts()
  /// Deliveries refused this run, or shown by the terminal: not tried again before the next.
  private var tried: Set<DeliveryKey> = []
  /// Per search and channel, the messages sent this run (``Limits/announcePerSearch`` is a
  /// run's room, however many times the search's deliveries leave).
  private var sent: [BatchKey: Int] = [:]
  /// This run's new and changed listings so far, by search (as the store names it).
  private var fresh: Fresh = [:]

  init(
    config: Config, channels: [String: any DeliveryChannel], memory: any ListingMemory, now: Date,
    clock: @escaping @Sendable () -> Date
  ) {
    self.config = config
    self.channels = channels
    self.memory = memory
    self.now = now
    self.clock = clock
    self.contexts = DealContextBook(memory: memory, now: now)
  }

  /// Delivers what `search`, just recorded, owes; `fresh` are its new and changed listings of
  /// this recording (reported as new, not as found earlier). A digest channel's deliveries wait
  /// for ``deliverRest()``: a digest is one message per run.
  mutating func deliver(_ search: Search, fresh: Set<ListingKey>) async throws {
    self.fresh[search.name, default: []].formUnion(fresh)
    try await run(searches: [search.name], fresh: [search.name: fresh], last: false)
  }

  /// The run's last pass: what else is owed (refused before, released from quiet hours) and
  /// the digests; every listing found this run is reported as new, not as found earlier.
  mutating func deliverRest() async throws {
    try await run(searches: nil, fresh: fresh, last: true)
  }

  /// Delivers what is owed for `searches` (nil: every search), as the store names them; `fresh`
  /// are this run's new and changed listings per search. A digest channel's deliveries wait for
  /// the run's `last` pass.
  private mutating func run(searches: Set<String>?, fresh: Fresh, last: Bool) async throws {
    let byName = Dictionary(config.searches.map { ($0.name, $0) }) { first, _ in first }
    // A scheduled digest goes when due, in the last pass (``DigestTiming``).
    let due = last ? try DigestTiming.due(config: config, memory: memory, now: now) : []
    // Per due scheduled digest, every search's part of it, sent together after the others (in
    // the order the channels came).
    var digests: [String: (channel: Channel, parts: [Part])] = [:]
    var digestOrder: [String] = []
    // Each search's owed listings with their context, read once this pass whatever the channels.
    var annotatedOf: [String: [ListingKey: Listing]] = [:]
    func annotated(_ owed: [OwedDelivery], search: String) throws -> [OwedDelivery] {
      let missing = owed.map(\.listing).filter { annotatedOf[search]?[$0.key] == nil }
      for listing in try contexts.annotated(missing, search: search) {
        annotatedOf[search, default: [:]][listing.key] = listing
      }
      return owed.map { entry in
        var entry = entry
        entry.listing = annotatedOf[search]?[entry.listing.key] ?? entry.listing
        return entry
      }
    }
    for batch in try batches(of: searches) {
      guard let search = byName[batch.key.search], let channel = config.channels[batch.key.channel]
      else { continue }
      if channel.grouping == .digest && !last { continue }
      if channel.schedule != nil && !due.contains(channel.name) { continue }
      let waiting = batch.owed.filter { !tried.contains(DeliveryKey($0)) }
      guard !waiting.isEmpty else { continue }
      // The terminal's report lists every new listing: the limit is for messages.
      if channel.kind == .stdout {
        let owed = try annotated(waiting, search: search.name)
        receipts.terminal += owed
        tried.formUnion(owed.map(DeliveryKey.init))
        note(owed.map(\.listing), of: search.name, fresh: fresh)
        continue
      }
      let room = config.limits.announcePerSearch - sent[batch.key, default: 0]
      guard room > 0 else {
        receipts.notes[search.name, default: []].append(
          "\(batch.key.channel): \(CheckedNumber.grouped(waiting.count)) more left for the next run "
            + "(limits.announce_per_search \(config.limits.announcePerSearch) reached this run)")
        continue
      }
      let owed = try annotated(waiting, search: search.name)
      let bounded = Announcement(owed, room: room, search: search.name)
      sent[batch.key, default: 0] += bounded.listings.count
      if let summary = bounded.summary {
        receipts.notes[search.name, default: []].append(
          "\(batch.key.channel): \(CheckedNumber.grouped(bounded.rest.count)) more summed up in one "
            + "message (limits.announce_per_search \(config.limits.announcePerSearch)): "
            + "'\(summary.title)'")
      }
      let part = Part(search: search, owed: owed, bounded: bounded)
      if channel.schedule != nil {
        if digests[channel.name] == nil { digestOrder.append(channel.name) }
        digests[channel.name, default: (channel, [])].parts.append(part)
        continue
      }
      try await deliver([part], to: channel, fresh: fresh)
    }
    // The searches in the config's order: the same message whichever search was owed first.
    let rank = Dictionary(config.searches.enumerated().map { ($1.name, $0) }) { first, _ in first }
    for digest in digestOrder.compactMap({ digests[$0] }) {
      let parts = digest.parts.sorted {
        rank[$0.search.name, default: 0] < rank[$1.search.name, default: 0]
      }
      try await deliver(parts, to: digest.channel, fresh: fresh)
    }
  }

  /// This run's new and changed listings, per search (as the store names it).
  typealias Fresh = [String: Set<ListingKey>]

  /// One search's part of a batch: what it owes the channel, and what of it is announced.
  struct Part {
    let search: Search
    let owed: [OwedDelivery]
    let bounded: Announcement
  }

  /// Sends a batch and tallies what the channel accepted.
  private mutating func deliver(_ parts: [Part], to channel: Channel, fresh: Fresh) async throws {
    let accepted = try await send(parts, channel: channel.name, kind: channel.kind)
    for part in parts {
      let taken = part.owed.filter { accepted.contains(DeliveryKey($0)) }.map(\.listing)
      receipts.channels[channel.name, default: .init()].delivered += taken.count
      note(taken, of: part.search.name, fresh: fresh)
    }
  }

  /// Owed deliveries grouped by search and channel, in the order they were owed.
  private func batches(of searches: Set<String>?) throws -> [(
    key: BatchKey, owed: [OwedDelivery]
  )] {
    var order: [BatchKey] = []
    var groups: [BatchKey: [OwedDelivery]] = [:]
    for owed in try memory.owedDeliveries(maxAttempts: Self.maxAttempts, searches: searches) {
      let key = BatchKey(search: owed.search, channel: owed.channel)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(owed)
    }
    return order.map { ($0, groups[$0] ?? []) }
  }

  /// Sends one batch; returns the deliveries the channel accepted. Each accepted message
  /// is recorded in the store the moment the channel says so, before the next is sent. A batch
  /// of several searches' parts (a scheduled digest) is one message, sent as a search made up
  /// of them (``Search/digestParts``); its acceptance records every part.
  private mutating func send(_ parts: [Part], channel: String, kind: Channel.Kind) async throws
    -> Set<DeliveryKey>
  {
    let sender = channels[channel] ?? UnavailableChannel(name: channel, kind: kind)
    let book = ReceiptBook(channel: channel)
    let (memory, clock) = (self.memory, self.clock)
    let carried = parts.map { (search: $0.search.name, keys: $0.owed.map(\.listing.key)) }
    let single = parts.count == 1 ? parts.first : nil
    let summaryKey = single?.bounded.summary?.key
    let rest = single?.bounded.rest.map(\.listing) ?? []
    let search = single?.search ?? .digest(parts.map { ($0.search, $0.bounded.listings.count) })
    // What one message's listings stand for: the summary every listing it sums up; a digest of
    // several searches is one message, and stands for every part.
    let coveredBy = { @Sendable (listings: [Listing]) -> [(search: String, keys: [ListingKey])] in
      single == nil
        ? carried
        : [(search.name, listings.flatMap { $0.key == summaryKey ? rest : [$0] }.map(\.key))]
    }
    do {
      try await sender.deliver(parts.flatMap(\.bounded.listings), search: search) { accepted in
        let covered = coveredBy(accepted)
        do {
          // One message, one transaction: a digest's receipt is recorded whole or not at all,
          // so a kill never records part of it and sends the rest again under another key.
          try memory.markDelivered(covered, channel: channel, at: clock())
        } catch {
          throw ReceiptFailure(underlying: error)
        }
        book.add(covered)
      }
    } catch let failure as ReceiptFailure {
      throw failure.underlying
    } catch {
      // Each message refused alone is its listings' refusal; what stopped the batch, if
      // anything did, is the refusal of the rest.
      for refused in (error as? DeliveryError)?.refusedMessages ?? [] {
        let covered = coveredBy(refused.listings)
        try refuse(
          unaccepted(parts, book.accepted).filter { owed in
            covered.contains { $0.search == owed.search && $0.keys.contains(owed.listing.key) }
          }, reason(refused.reason, channel: channel))
      }
      let left = unaccepted(parts, book.accepted)
      if !left.isEmpty {
        try refuse(left, reason((error as? DeliveryError)?.message ?? "\(error)", channel: channel))
      }
    }
    return book.accepted
  }

  /// The deliveries of `parts` neither accepted (`accepted`) nor refused yet this run.
  private func unaccepted(_ parts: [Part], _ accepted: Set<DeliveryKey>) -> [OwedDelivery] {
    parts.flatMap { part in
      part.owed.filter {
        let key = DeliveryKey($0)
        return !accepted.contains(key) && !tried.contains(key)
      }
    }
  }

  /// What a refusal said, fit for the report, the store and the logs: a refusal may echo the
  /// address it was sent to, and no secret of the channel reaches them.
  private func reason(_ said: String, channel: String) -> String {
    config.channels[channel].map { ChannelRedactor.scrub(said, channel: $0) } ?? said
  }

  /// Records refusals; a delivery refused too often is given up, and said so.
  private mutating func refuse(_ owed: [OwedDelivery], _ reason: String) throws {
    let reported = reason + "; retried on the next run"
    if !receipts.failures.contains(reported) { receipts.failures.append(reported) }
    tried.formUnion(owed.map(DeliveryKey.init))
    for entry in owed {
      receipts.channels[entry.channel, default: .init()].failed += 1
      let attempts = try memory.markFailed(
        search: entry.search, key: entry.listing.key, channel: entry.channel, error: reason,
        at: clock())
      if attempts >= Self.maxAttempts {
        receipts.failures.append(
          "gave up on '\(entry.listing.title)' (\(entry.search)) after \(attempts) attempts: "
            + reason)
      }
    }
  }

  /// Listings found earlier that reached a channel now, once each per search.
  private mutating func note(_ listings: [Listing], of search: String, fresh: Fresh) {
    let new = fresh[search] ?? []
    for listing in listings where !new.contains(listing.key) {
      if receipts.delivered[search]?.contains(where: { $0.key == listing.key }) != true {
        receipts.delivered[search, default: []].append(listing)
      }
    }
  }
}

/// The deliveries a channel accepted, gathered from its receipts.
private final class ReceiptBook: Sendable {
  private let channel: String
  private let keys = Mutex<Set<DeliveryKey>>([])

  init(channel: String) { self.channel = channel }

  func add(_ carried: [(search: String, keys: [ListingKey])]) {
    keys.withLock { keys in
      for (search, listings) in carried {
        for listing in listings {
          keys.insert(DeliveryKey(search: search, listing: listing, channel: channel))
        }
      }
    }
  }
  var accepted: Set<DeliveryKey> { keys.withLock { $0 } }
}

extension Search {
  /// The search a scheduled digest of several searches is sent as: named after them all
  /// (`{search}`, a webhook's `search`), carrying each one's part (``digestParts``).
  static func digest(_ parts: [(search: Search, count: Int)]) -> Search {
    var search = Search(name: parts.map(\.search.name).joined(separator: ", "), site: "clarissa")
    search.digestParts = parts
    return search
  }
}

/// The store could not record a receipt: the run stops (exit 5), the channel is not to blame.
private struct ReceiptFailure: Error {
  let underlying: any Error
}

/// One batch within the announcement limits: the listings announced one by one, and the rest
/// summed up in one message that points where they can be seen.
struct Announcement {
  /// Announced as they are.
  var each: [OwedDelivery]
  /// Summed up in ``summary``.
  var rest: [OwedDelivery]
  /// The message standing for ``rest``: a listing of clarissa's own, so that every channel
  /// kind carries it as it carries any other.
  var summary: Listing?

  init(_ owed: [OwedDelivery], room: Int, search: String) {
    guard owed.count > room else {
      (each, rest, summary) = (owed, [], nil)
      return
    }
    // The summary takes one place of the room: a channel never gets more messages than it.
    let shown = max(0, room - 1)
    each = Array(owed.prefix(shown))
    rest = Array(owed.dropFirst(shown))
    summary = Self.summary(rest.map(\.listing), search: search)
  }

  /// What the channel is sent.
  var listings: [Listing] { each.map(\.listing) + (summary.map { [$0] } ?? []) }

  /// The message standing for `rest`, worded by what they are: "and 4,950 more new", or, when
  /// changes are among them, "and 1,951 more (1,900 changed, 51 new)".
  static func summary(_ rest: [Listing], search: String) -> Listing {
    var counts: [ListingEventKind: Int] = [:]
    for listing in rest { counts[listing.event?.kind ?? .new, default: 0] += 1 }
    let total = CheckedNumber.grouped(rest.count)
    let what =
      counts.keys.count == 1 && counts[.new] != nil
      ? "\(total) more new"
      : "\(total) more (\(counts.keys.sorted().map { RunReport.counted(counts[$0] ?? 0, $0) }.joined(separator: ", ")))"
    return Listing(
      id: "more-\(rest.count)", site: "clarissa", url: "",
      title: "and \(what) in '\(search)': clarissa listings --search \(search), or the web page",
      description:
        "More new listings and changes than the announcement limits allow (limits: in "
        + "searches.yaml); they are recorded and browsable.")
  }
}
