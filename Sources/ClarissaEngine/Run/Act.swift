internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// Acting on one search's verdicts: what the report says of it, and what the store keeps.
enum Act {
  /// The search's outcome completed from its reading and verdicts, and its record.
  /// `unchanged`: the listings passed over unread (seen, unchanged: in the answer, nothing to
  /// do).
  static func on(
    _ judgements: [Judgement], of planned: PlannedSearch, unchanged: [ListingKey] = [],
    reading: SearchReading, asked: Set<String>, outcome: RunResult.SearchOutcome,
    options: RunOptions
  ) -> (RunResult.SearchOutcome, SearchRecord) {
    var accepted: [Listing] = []
    accepted.reserveCapacity(judgements.count)
    let digests = reading.digests
    var kept: [ListingKey: String] = [:]
    for judgement in judgements where judgement.verdict.isInAnswer {
      accepted.append(judgement.listing)
      if let digest = digests[judgement.listing.key], passable(judgement, of: planned) {
        kept[judgement.listing.key] = digest
      }
    }
    let answered = !reading.batches.isEmpty
    var outcome = counted(outcome, judgements, of: planned, reading: reading)
    outcome.matched += unchanged.count
    // Recorded now, from an answer that came at its time, by a run that began at its start.
    var record = SearchRecord(
      search: planned.search.name, now: options.time(), seen: accepted,
      answered: Set(reading.batches.map(\.url)), asked: asked, validators: reading.validators,
      reached: answered || reading.failures.isEmpty)
    record.answeredAt = reading.answeredAt
    record.began = options.now
    record.unchanged = unchanged
    record.digests = kept
    record.failures = reading.failures
    if !answered, !reading.failures.isEmpty {
      outcome.status = .failed
    } else if !answered, reading.cooling {
      outcome.status = .coolingDown
      outcome.detail = "every source's host is cooling down: nothing was asked"
      return (outcome, record)
    }
    if planned.prime {
      // Not notified, but shown: the page and feeds hold the search's latest listings from the
      // first run on, not an empty section until something new appears.
      if answered || options.prime { record.recent = accepted }
      return (primedOutcome(outcome, answered: answered, count: accepted.count, options), record)
    }
    let fresh = judgements.filter { $0.verdict == .new }.map(\.listing)
    (outcome.folded, record.reposts) = reposts(judgements)
    record.crossPosts = crossPosts(judgements)
    outcome.onOtherSites = record.crossPosts.isEmpty ? nil : record.crossPosts.count
    outcome.new = fresh
    record.recent = fresh
    if planned.hold {
      outcome.held = fresh.count
      record.held = fresh
    } else {
      record.owed = fresh
      // A change in quiet hours is not announced yet: it is found again when they end.
      record.changed = judgements.compactMap {
        if case .changed = $0.verdict { return $0.listing } else { return nil }
      }
      outcome.changed = record.changed
      record.channels = planned.search.notify
    }
    return (outcome, record)
  }

  /// Whether the next answer may pass over the listing if it comes unchanged: only when a
  /// later run would make nothing else of it than "seen". Not a listing whose price differs from
  /// the one last announced (a change of `notify_on` could announce it), nor a change held by
  /// quiet hours or a priming run (found again by the next), nor one whose address is not placed
  /// (a later run, or a geocoder configured later, may place it).
  static func passable(_ judgement: Judgement, of planned: PlannedSearch) -> Bool {
    guard Geocoding.query(judgement.listing) == nil else { return false }
    switch judgement.verdict {
    case .seen(let sighting): return sighting.announcedPrice == judgement.listing.price
    case .changed(let event): return !planned.hold && !planned.prime && event.kind != .gone
    case .filtered: return false
    case .new, .primed, .repost, .alsoOn, .hidden: return true
    }
  }

  /// The reposts among the verdicts, for the report and the store.
  private static func reposts(_ judgements: [Judgement]) -> (
    [RunResult.Repost], [ListingKey: String]
  ) {
    var folded: [RunResult.Repost] = []
    var links: [ListingKey: String] = [:]
    for judgement in judgements {
      if let original = judgement.repostOf {
        // A repost hidden, or announced as a starred listing's: linked, not folded.
        links[judgement.listing.key] = original
      }
      guard case .repost(let original, let firstSeen) = judgement.verdict else { continue }
      let listing = judgement.listing
      folded.append(
        RunResult.Repost(
          id: listing.id, title: listing.title, url: listing.url, repostOf: original,
          firstSeen: firstSeen))
      links[listing.key] = original
    }
    return (folded, links)
  }

  /// The listings found to be the same flat as one on another site, with that listing's key.
  private static func crossPosts(_ judgements: [Judgement]) -> [ListingKey: ListingKey] {
    var links: [ListingKey: ListingKey] = [:]
    for judgement in judgements {
      if case .alsoOn(let other, _) = judgement.verdict { links[judgement.listing.key] = other }
    }
    return links
  }

  /// The counts, failures and notes of a search's line.
  private static func counted(
    _ outcome: RunResult.SearchOutcome, _ judgements: [Judgement], of planned: PlannedSearch,
    reading: SearchReading
  ) -> RunResult.SearchOutcome {
    var outcome = outcome
    outcome.failures += reading.failures
    outcome.notes += reading.notes
    // Counted in one pass, not filtered into copies: a poll of 20,000 known listings would
    // copy every judgement twice.
    var (matched, primed) = (0, 0)
    var (fresh, freshSources, rotatedSources) = (0, Set<String>(), Set<String>())
    for judgement in judgements where judgement.verdict.isInAnswer {
      matched += 1
      guard case .primed(let reason) = judgement.verdict else { continue }
      primed += 1
      if reason == .unstableIDs {
        rotatedSources.insert(judgement.source)
      } else {
        fresh += 1
        freshSources.insert(judgement.source)
      }
    }
    outcome.fetched = reading.batches.reduce(0) { $0 + $1.count }
    outcome.matched = matched
    outcome.primed = planned.prime ? outcome.matched : primed
    if !planned.prime, fresh > 0 {
      let sources = freshSources.count
      outcome.notes.append(
        "\(fresh) listings from \(sources == 1 ? "a source" : "sources") "
          + "answering for the first time recorded, not notified")
    }
    for source in rotatedSources.sorted() {
      let count = reading.batches.first { $0.url == source }?.count ?? 0
      outcome.notes.append(
        "\(source): all \(CheckedNumber.grouped(count)) ids changed since the last answer: the "
          + "feed's ids are not stable; recorded, not notified")
    }
    return outcome
  }

  /// A primed search's line: how many listings were recorded, or that none could be.
  private static func primedOutcome(
    _ outcome: RunResult.SearchOutcome, answered: Bool, count: Int, _ options: RunOptions
  ) -> RunResult.SearchOutcome {
    var outcome = outcome
    if !answered && !options.prime {
      if outcome.status == .primed { outcome.status = .ran }
      outcome.detail =
        "first run, but no source answered: the first run that reaches one records its listings "
        + "without notifying them"
      return outcome
    }
    outcome.detail =
      (options.prime ? "primed" : "first run")
      + ": \(count) current \(count == 1 ? "listing" : "listings") recorded, not notified"
    return outcome
  }
}
