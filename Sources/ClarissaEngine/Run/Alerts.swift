internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import ListingText

/// Stage 4, after the fold: what the listings a person marked, and text changes, make of a
/// search's verdicts (issue 28; docs/notifications.md, "Starred and hidden listings").
///
/// - Hidden listings are never announced: not new, not changed; a new id that is the same item
///   as a hidden listing (``Fingerprint``, whatever the repost window and `duplicates`) is its
///   repost, never announced, and hidden too.
/// - Starred listings are told, whatever `notify_on`: any price change from the price last
///   announced, gone (their source answered without them twice in a row), back (seen again
///   after that), reposted under another id (the fold's match: the star carries over), and a
///   changed title or description.
/// - A search that names `changed` in `notify_on` is told text changes of all its listings.
///
/// A change costs only what it needs: the marks are a few rows, and the text before is read
/// only for listings whose content hash differs from the stored one, of searches that announce
/// `changed` or of starred listings. A listing is announced once per run: a return first, then a
/// price change, then a text change (a text change found with a price change is kept, and
/// shown by `show` and the page).
enum Alerts {
  /// The verdicts with the marks applied, and what the record keeps of them.
  static func apply(
    _ judgements: [Judgement], of planned: PlannedSearch, reading: SearchReading,
    unchanged: [ListingKey] = [], memory: any ListingMemory, options: RunOptions
  ) throws -> (judgements: [Judgement], alerts: AlertRecord) {
    let watchesText = planned.search.notifyOn.contains(.changed)
    let marked = try memory.markedListings(search: planned.search.name)
    guard !marked.isEmpty || watchesText else { return (judgements, AlertRecord()) }
    var pass = Pass(marked: marked, now: options.now)
    var judged = pass.hide(judgements)
    guard !planned.prime else { return (judged, pass.record) }
    judged = pass.starred(judged)
    judged = try pass.texts(judged, watchesText: watchesText, memory: memory)
    judged += pass.gone(judged, unchanged: unchanged, answered: reading.batches)
    return (judged, pass.record)
  }

  /// One search's pass over its verdicts, gathering the record.
  struct Pass {
    let marked: MarkedListings
    let now: Date
    var record = AlertRecord()

    /// Hidden listings and their reposts: never announced.
    mutating func hide(_ judgements: [Judgement]) -> [Judgement] {
      guard !marked.hidden.isEmpty else { return judgements }
      // Made only when a new listing may be a hidden one's repost (most polls bring none).
      var built: Fingerprint.RunIndex?
      func index() -> Fingerprint.RunIndex {
        if let built { return built }
        var index = Fingerprint.RunIndex()
        for listing in marked.hiddenListings {
          index.add(Fingerprint.Item(listing), firstSeen: nil)
        }
        built = index
        return index
      }
      return judgements.map { judgement in
        guard judgement.verdict.isAnnounced || judgement.verdict.isRepost else { return judgement }
        var judgement = judgement
        let key = judgement.listing.key
        var original: String?
        if case .repost(let id, _) = judgement.verdict,
          marked.hidden.contains(ListingKey(site: key.site, id: id))
        {
          original = id
        } else if !marked.hidden.contains(key) {
          // A listing the search has seen is not taken for another's repost.
          if case .changed = judgement.verdict { return judgement }
          original = index().match(Fingerprint.Item(judgement.listing))?.listing.id
          guard original != nil else { return judgement }
        }
        judgement.verdict = .hidden(repostOf: original)
        judgement.repostOf = original
        judgement.listing.event = nil
        if original != nil { record.hidden.append(key) }
        return judgement
      }
    }

    /// Starred listings in the answer: watched at their source, back after gone, any price
    /// change; a repost of one is announced, starred too.
    mutating func starred(_ judgements: [Judgement]) -> [Judgement] {
      guard !marked.starred.isEmpty else { return judgements }
      return judgements.map { judgement in
        var judgement = judgement
        let key = judgement.listing.key
        if case .repost(let original, _) = judgement.verdict {
          reposted(&judgement, of: original)
          return judgement
        }
        guard marked.starred.contains(key), judgement.verdict.wasSeen else { return judgement }
        // Written only when it changes: a starred listing's source and count of answers without
        // it, not once a run for each.
        let watched = WatchedSource(source: judgement.source)
        if marked.watched[key] != watched { record.watched[key] = watched }
        let wasGone = marked.watched[key]?.goneAt != nil
        let announced: Double?
        switch judgement.verdict {
        case .seen(let sighting): announced = sighting.announcedPrice
        // The search's own change stands, unless the listing returns after gone.
        case .changed(let event) where wasGone && event.kind != .back: announced = event.oldPrice
        default: return judgement
        }
        if wasGone {
          announce(&judgement, ListingEvent(kind: .back, oldPrice: announced))
        } else if let price = judgement.listing.price, let announced, price != announced {
          let kind: ListingEventKind = price < announced ? .priceDrop : .priceRise
          announce(&judgement, ListingEvent(kind: kind, oldPrice: announced))
        }
        return judgement
      }
    }

    /// A repost the fold found of a starred listing: announced with the id it repeats, starred
    /// and watched from now on; the listing it repeats is told as reposted, not later as gone.
    private mutating func reposted(_ judgement: inout Judgement, of original: String) {
      let key = judgement.listing.key
      let old = ListingKey(site: key.site, id: original)
      guard marked.starred.contains(old) else { return }
      announce(&judgement, ListingEvent(kind: .reposted))
      judgement.repostOf = original
      var alert = judgement.listing.alert ?? ListingAlert()
      alert.change = ListingAlert.repostChange(of: original)
      judgement.listing.alert = alert
      record.starred.append(key)
      record.watched[key] = WatchedSource(source: judgement.source)
      if var watched = marked.watched[old] {
        watched.goneAt = now
        record.watched[old] = watched
      }
    }

    /// Text changes of starred listings, and of every listing when the search announces
    /// `changed`: the text before read only where the content hash differs.
    mutating func texts(
      _ judgements: [Judgement], watchesText: Bool, memory: any ListingMemory
    ) throws -> [Judgement] {
      var candidates: [Int] = []
      for (index, judgement) in judgements.enumerated() where judgement.verdict.wasSeen {
        if watchesText || marked.starred.contains(judgement.listing.key) {
          candidates.append(index)
        }
      }
      guard !candidates.isEmpty else { return judgements }
      let before = try memory.textsBefore(candidates.map { judgements[$0].listing }, at: now)
      guard !before.isEmpty else { return judgements }
      var judged = judgements
      for index in candidates {
        guard let change = before[judged[index].listing.key] else { continue }
        let listing = ListingDescription.resolve(judged[index].listing)
        // An answer without a description (a search page) says nothing of the stored one.
        var compared = listing
        if compared.description.isEmpty { compared.description = change.oldDescription }
        guard change.differs(from: compared) else { continue }
        record.textChanges[listing.key] = change
        judged[index].listing = listing
        guard case .seen = judged[index].verdict else { continue }
        announce(&judged[index], ListingEvent(kind: .changed))
        var alert = judged[index].listing.alert ?? ListingAlert()
        alert.change = change.plainDiff(to: compared)
        judged[index].listing.alert = alert
      }
      return judged
    }

    /// Starred listings of the search not in its answer: a source that answered (with
    /// listings) without one counts; twice in a row, it is gone, told as last seen.
    mutating func gone(
      _ judgements: [Judgement], unchanged: [ListingKey], answered batches: [SourceBatch]
    ) -> [Judgement] {
      guard !marked.watched.isEmpty else { return [] }
      let present = Set(judgements.map(\.listing.key) + unchanged)
      let answered = Set(batches.filter { $0.count > 0 }.map(\.url))
      var told: [Judgement] = []
      for (key, watched) in marked.watched.sorted(by: { $0.key < $1.key }) {
        guard !present.contains(key), watched.goneAt == nil, record.watched[key] == nil,
          answered.contains(watched.source), !marked.hidden.contains(key),
          let stored = marked.stored[key]
        else { continue }
        var counted = watched
        counted.missing += 1
        if counted.missing >= 2 {
          counted.goneAt = now
          var judgement = Judgement(
            listing: stored, source: watched.source, reason: nil, verdict: .filtered)
          announce(&judgement, ListingEvent(kind: .gone))
          told.append(judgement)
        }
        record.watched[key] = counted
      }
      return told
    }

    /// The judgement announced as `event`.
    private func announce(_ judgement: inout Judgement, _ event: ListingEvent) {
      judgement.verdict = .changed(event)
      judgement.listing.event = event
    }
  }
}

extension Verdict {
  /// Whether the run announces the listing (new, or changed).
  var isAnnounced: Bool {
    switch self {
    case .new, .changed: return true
    default: return false
    }
  }

  /// Whether the fold found it a repost.
  var isRepost: Bool {
    if case .repost = self { return true }
    return false
  }

  /// Whether the search saw it before (and it is in the answer).
  var wasSeen: Bool {
    switch self {
    case .seen: return true
    case .changed(let event): return event.kind != .gone && event.kind != .reposted
    default: return false
    }
  }
}

extension Verdict {
  /// Whether the listing is in the search's answer and passed its filters (a starred listing
  /// told gone is not).
  var isInAnswer: Bool {
    switch self {
    case .filtered: return false
    case .changed(let event): return event.kind != .gone
    default: return true
    }
  }

}
