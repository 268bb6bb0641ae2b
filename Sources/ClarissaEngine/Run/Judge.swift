public import ClarissaCore
public import Foundation
public import ListingStore
internal import ListingText

/// Why a listing is recorded without being notified.
public enum PrimeReason: String, Sendable, Equatable {
  /// The search's first run (or `--prime`).
  case firstRun = "the search's first run"
  /// Its source answers for the first time.
  case newSource = "its source answers for the first time"
  /// Its source, known, answered with nothing but ids never seen: a feed whose ids change on
  /// every answer would otherwise announce all of them on every run.
  case unstableIDs = "every id of its source's answer changed since the last one"
}

/// What the run makes of one listing; `run` acts on it and `explain` prints it.
public enum Verdict: Sendable, Equatable {
  /// Not seen by the search before: notified (or held in quiet hours).
  case new
  /// Seen by the search before.
  case seen(Sighting)
  /// Recorded without notifying.
  case primed(PrimeReason)
  /// Dropped by the filters or the price range (the reason names which).
  case filtered
  /// New to the search by id, but the same item as a listing it knows (``Fingerprint``): a
  /// repost or a cross-post, recorded and linked, not announced. `firstSeen` is nil when that
  /// listing is new in this run too.
  case repost(of: String, firstSeen: Date?)
  /// New to the search, but the same flat (``SameFlat``) as a listing on another site that a
  /// search saw first at `firstSeen`: recorded and linked to it, not announced.
  case alsoOn(ListingKey, firstSeen: Date)
  /// Seen before, and changed in a way the search announces (`notify_on`): a price drop or
  /// rise past its threshold from the price last announced, or a return after `back_after`;
  /// a text change; of a starred listing any price change, gone, back or reposted (``Alerts``).
  case changed(ListingEvent)
  /// Hidden by a person, or a repost of a hidden listing (`repostOf`, hidden too from now on):
  /// recorded, never announced.
  case hidden(repostOf: String?)
}

/// One listing's judgement: the filters' decision and the verdict.
public struct Judgement: Sendable {
  /// The listing.
  public var listing: Listing
  /// The URL of the source that returned it first.
  public var source: String
  /// Which filter decided, or why it was dropped (nil when not asked: a listing the search has
  /// seen is not filtered again on the run's path).
  public var reason: String?
  /// The verdict.
  public var verdict: Verdict
  /// The id of the listing this one repeats, when it is linked rather than folded: a starred
  /// listing's repost (announced as ``ListingEventKind/reposted``), or a hidden one's.
  public var repostOf: String? = nil
}

/// Stage 4: per listing a verdict, from the filters and what the store remembers. Seen listings
/// are looked up first by key, so only the unseen pay for their text and the filters.
enum Judge {
  /// Every listing of one search's sources, once each, in the sources' order, with their
  /// warning signs (``Signals``) as a run finds them: what `explain` shows.
  static func judge(
    _ planned: PlannedSearch, reading: SearchReading, memory: any ListingMemory,
    options: RunOptions, explaining: Bool = false
  ) throws -> [Judgement] {
    let judgements = try judged(
      planned, reading: reading, memory: memory, options: options, explaining: explaining
    ).judgements
    return try Signals.apply(
      judgements, of: planned.search, memory: memory, now: options.now
    ).judgements
  }

  /// ``judge(_:reading:memory:options:explaining:)`` with what the alerts for marked listings
  /// and text changes leave for the record (``Alerts``), and the listings passed over
  /// unchanged (``SourceBatch/unchanged``), once each: seen, unchanged, nothing to judge.
  static func judged(
    _ planned: PlannedSearch, reading: SearchReading, memory: any ListingMemory,
    options: RunOptions, explaining: Bool = false
  ) throws -> (
    judgements: [Judgement], alerts: AlertRecord, unchanged: [ListingKey], notes: [String]
  ) {
    let (unique, sources, unchanged) = deduplicated(reading.batches)
    var judged = try verdicts(
      unique, sources: sources, of: planned, reading: reading, memory: memory, options: options,
      explaining: explaining)
    // `explain` shows every listing; a run takes a flood's first new listings only.
    let left = explaining ? [] : bound(&judged, newPerAnswer: options.limits.newPerAnswer)
    let folded = try fold(
      judged, of: planned, unchanged: unchanged, memory: memory, options: options)
    let (judgements, alerts) = try Alerts.apply(
      folded, of: planned, reading: reading, unchanged: unchanged, memory: memory,
      options: options)
    let notes = left.map { source, count in
      "\(source): \(CheckedNumber.grouped(count)) more new listings than "
        + "limits.new_per_answer (\(CheckedNumber.grouped(options.limits.newPerAnswer))) left "
        + "for the next run: not recorded, so not lost"
    }
    return (judgements, alerts, unchanged, notes)
  }

  /// What a flood costs, bounded: of each source's answer, the first `newPerAnswer` new
  /// listings go on (judged, recorded, announced); the others are taken out of this run's
  /// judgements, not recorded, so that the next run finds them new again. Returns how many
  /// were left per source, in the sources' order. Priming is not bounded (it announces
  /// nothing, and a listing it left would be announced by the next run).
  static func bound(_ judgements: inout [Judgement], newPerAnswer: Int) -> [(String, Int)] {
    var counts: [String: Int] = [:]
    var over = false
    for judgement in judgements where judgement.verdict == .new {
      counts[judgement.source, default: 0] += 1
      if counts[judgement.source, default: 0] > newPerAnswer { over = true }
    }
    guard over else { return [] }
    var taken: [String: Int] = [:]
    var left: [(String, Int)] = []
    judgements.removeAll { judgement in
      guard judgement.verdict == .new else { return false }
      taken[judgement.source, default: 0] += 1
      guard taken[judgement.source, default: 0] > newPerAnswer else { return false }
      if taken[judgement.source] == newPerAnswer + 1 {
        left.append((judgement.source, (counts[judgement.source] ?? 0) - newPerAnswer))
      }
      return true
    }
    return left
  }

  /// The verdicts before folding.
  private static func verdicts(
    _ unique: [Listing], sources: [String], of planned: PlannedSearch, reading: SearchReading,
    memory: any ListingMemory, options: RunOptions, explaining: Bool
  ) throws -> [Judgement] {
    let sightings = try memory.lookUp(search: planned.search.name, keys: unique.map(\.key))
    // A source (a city, a feed) answering for the first time is primed like a new search; a
    // listing that a known source returns too is new all the same. Asked only of a listing the
    // search has not seen: a poll where every listing is known gathers none of these ids.
    var fromKnown = Set<String>()
    var rotated = Set<String>()
    let unseen = unique.contains { sightings[$0.key] == nil }
    for batch in reading.batches where unseen && planned.memory?.knows(source: batch.url) ?? false {
      fromKnown.formUnion(batch.listings.map(\.id))
      if unstable(batch, sightings: sightings, memory: planned.memory) {
        rotated.formUnion(batch.listings.map(\.id))
      }
    }
    return zip(unique, sources).map { listing, source in
      if let sighting = sightings[listing.key], !explaining {
        guard
          let event = Change.event(
            listing, sighting, planned.search, lastRun: planned.memory?.lastRun)
        else {
          return Judgement(listing: listing, source: source, reason: nil, verdict: .seen(sighting))
        }
        var changed = ListingDescription.resolve(listing)
        changed.event = event
        return Judgement(listing: changed, source: source, reason: nil, verdict: .changed(event))
      }
      // Only a listing the search has not seen pays for its text (explain resolves all).
      let listing = ListingDescription.resolve(listing)
      // The words of the decision only for `explain`: a run needs the decision alone.
      let (accepted, reason): (Bool, String?) =
        explaining
        ? ListingFilter.verdict(listing, for: planned.search)
        : (ListingFilter.accepts(listing, for: planned.search), nil)
      let verdict: Verdict
      if !accepted {
        verdict = .filtered
      } else if let sighting = sightings[listing.key] {
        let event = Change.event(
          listing, sighting, planned.search, lastRun: planned.memory?.lastRun)
        verdict = event.map { .changed($0) } ?? .seen(sighting)
      } else if planned.prime {
        verdict = .primed(.firstRun)
      } else if !options.notifyFirstRun, !fromKnown.contains(listing.id) {
        verdict = .primed(.newSource)
      } else if rotated.contains(listing.id), !explaining {
        verdict = .primed(.unstableIDs)
      } else {
        verdict = .new
      }
      return Judgement(listing: listing, source: source, reason: reason, verdict: verdict)
    }
  }

  /// A known source of a search that holds listings, whose answer of at least
  /// ``unstableFloor`` listings holds not one the search has seen: its ids are not stable.
  /// (A source that really renews every listing between two runs is polled too seldom to
  /// announce them one by one either.)
  static func unstable(
    _ batch: SourceBatch, sightings: [ListingKey: Sighting], memory: SearchMemory?
  ) -> Bool {
    guard memory?.hasListings == true, batch.unchanged.isEmpty,
      batch.listings.count >= unstableFloor
    else { return false }
    return !batch.listings.contains { sightings[$0.key] != nil }
  }

  /// The fewest listings in an answer for "every id changed" to mean unstable ids.
  static let unstableFloor = 50

  /// New listings that are the same item as one the search knows (seen before within the
  /// repost window, or announced earlier in this run) become reposts of it (`duplicates: fold`);
  /// those still new that are the same flat as a listing of another site become
  /// ``Verdict/alsoOn(_:firstSeen:)`` (``crossSite(_:memory:since:)``).
  /// Folding asks for evidence (``Fingerprint``): two ids of the answer fold only on more
  /// than a shared photo and title, a stock photo counts for nothing, and a site whose ids are
  /// unique (`ids: unique`) is never folded within itself.
  static func fold(
    _ judgements: [Judgement], of planned: PlannedSearch, unchanged: [ListingKey] = [],
    memory: any ListingMemory, options: RunOptions
  ) throws -> [Judgement] {
    let fresh = judgements.filter { $0.verdict == .new }.map(\.listing)
    guard planned.search.duplicates == .fold, !fresh.isEmpty else { return judgements }
    let since = options.now.addingTimeInterval(-planned.search.repostWindow.timeInterval)
    guard !planned.search.idsUnique else {
      return try crossSite(judgements, memory: memory, since: since)
    }
    // The answer's listings are side by side: one of them is never the other's repost on a
    // shared photo and title alone.
    var present = Set(unchanged)
    for judgement in judgements { present.insert(judgement.listing.key) }
    let stored = try memory.originals(
      search: planned.search.name, of: fresh, since: since, present: present)
    // The kept hashes of the new listings' photos (``PhotoMatch``): a photo re-uploaded under
    // another address is one photo. Seen listings are compared by photo id here; the store's
    // look-up (``ListingMemory/originals``) compares them by hash.
    let hashes = try memory.photoHashes(fresh.flatMap(\.imageURLs)).compactMapValues(\.hash)
    var run = Fingerprint.RunIndex(
      inOneAnswer: true,
      stock: Fingerprint.stockPhotos(judgements.map(\.listing), hashes: hashes))
    let folded = judgements.map { judgement in
      var judgement = judgement
      switch judgement.verdict {
      case .new:
        let item = Fingerprint.Item(judgement.listing, hashes: hashes)
        if let original = stored[judgement.listing.key] {
          judgement.verdict = .repost(of: original.id, firstSeen: original.firstSeen)
        } else if let first = run.match(item) {
          judgement.verdict = .repost(of: first.listing.id, firstSeen: first.firstSeen)
        } else {
          run.add(item, firstSeen: nil)
        }
      case .seen(let sighting):
        run.add(Fingerprint.Item(judgement.listing), firstSeen: sighting.firstSeen)
      default: break
      }
      return judgement
    }
    return try crossSite(folded, memory: memory, since: since)
  }

  /// New listings with coordinates or photos that are the same flat as a listing another site
  /// has (``SameFlat``), seen by any search since `since`, become
  /// ``Verdict/alsoOn(_:firstSeen:)``.
  static func crossSite(_ judgements: [Judgement], memory: any ListingMemory, since: Date)
    throws -> [Judgement]
  {
    let located = judgements.filter {
      $0.verdict == .new && ($0.listing.coordinates != nil || !$0.listing.imageURLs.isEmpty)
    }
    guard !located.isEmpty else { return judgements }
    let matches = try memory.sameFlats(of: located.map(\.listing), since: since)
    guard !matches.isEmpty else { return judgements }
    return judgements.map { judgement in
      guard judgement.verdict == .new, let match = matches[judgement.listing.key] else {
        return judgement
      }
      var judgement = judgement
      judgement.verdict = .alsoOn(match.key, firstSeen: match.firstSeen)
      return judgement
    }
  }

  /// Listings once each (the first source to return an id wins), with the source of each
  /// (`sources[i]` returned `listings[i]`), and the keys of those passed over unchanged. A
  /// source's answer without an id seen before is taken whole: the first (a feed's 20,000
  /// listings) is not copied.
  static func deduplicated(_ batches: [SourceBatch]) -> (
    listings: [Listing], sources: [String], unchanged: [ListingKey]
  ) {
    var seen = Set<String>(minimumCapacity: batches.reduce(0) { $0 + $1.count })
    var unique: [Listing] = []
    var sources: [String] = []
    var unchanged: [ListingKey] = []
    for batch in batches {
      defer { unchanged += batch.unchanged.filter { seen.insert($0.id).inserted } }
      let fresh = batch.listings.map { seen.insert($0.id).inserted }
      if !fresh.contains(false) {
        if unique.isEmpty { unique = batch.listings } else { unique += batch.listings }
      } else {
        unique += zip(batch.listings, fresh).compactMap { $1 ? $0 : nil }
      }
      sources += repeatElement(batch.url, count: unique.count - sources.count)
    }
    return (unique, sources, unchanged)
  }
}
