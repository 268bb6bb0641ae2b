import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// What the alerts keep in both stores: the marks a run judges with, the text before a change
/// read only where the content hash differs, watched sources, text changes, marks carried to
/// reposts, the diff on an owed delivery, and the prune.
@Suite(.serialized) struct StoreAlertsTests {
  static let start = StoreSamples.start
  static let later = start.addingTimeInterval(3600)

  static func record(_ listings: [Listing], at now: Date) -> SearchRecord {
    SearchRecord(
      search: "flats", now: now, seen: listings, answered: ["https://a.example/flats"],
      asked: ["https://a.example/flats"], reached: true)
  }

  @Test(arguments: StoreKind.built)
  func textChangesWatchedSourcesAndCarriedMarksAreKept(kind: StoreKind) throws {
    let store = try kind.open()
    let flat = Listing(
      id: "1", site: "craigslist", url: "https://a.example/1", title: "Sunny flat",
      description: "Two rooms.", price: 900)
    let other = Listing(
      id: "2", site: "craigslist", url: "https://a.example/2", title: "Dark flat", price: 500)
    try store.record(Self.record([flat, other], at: Self.start))
    #expect(try store.markedListings(search: "flats").isEmpty, "nothing marked")
    try store.setMark(.star, on: [flat.key], at: Self.start)
    try store.setMark(.hide, on: [other.key], at: Self.start)

    // Unchanged (the same content hash): no text read.
    #expect(try store.textsBefore([flat, other], at: Self.later).isEmpty)
    var changed = flat
    changed.description = "Two rooms. Pets welcome."
    let before = try store.textsBefore([changed, other], at: Self.later)
    let change = TextChange(
      oldTitle: "Sunny flat", oldDescription: "Two rooms.", changedAt: Self.later)
    #expect(before == [flat.key: change])

    var next = Self.record([changed, other], at: Self.later)
    changed.event = ListingEvent(kind: .changed)
    next.changed = [changed]
    next.channels = ["phone"]
    let (repost, hiddenRepost) = (
      ListingKey(site: "craigslist", id: "3"), ListingKey(site: "craigslist", id: "4")
    )
    next.alerts.watched = [flat.key: WatchedSource(source: "https://a.example/flats", missing: 1)]
    next.alerts.textChanges = before
    next.alerts.starred = [repost]
    next.alerts.hidden = [hiddenRepost]
    try store.record(next)

    let marked = try store.markedListings(search: "flats")
    #expect(marked.starred == [flat.key, repost])
    #expect(marked.hidden == [other.key, hiddenRepost])
    #expect(marked.hiddenListings.map(\.id) == ["2"], "the stored hidden listings")
    #expect(
      marked.watched == [flat.key: WatchedSource(source: "https://a.example/flats", missing: 1)])
    #expect(marked.stored[flat.key]?.description == "Two rooms. Pets welcome.")
    #expect(try store.markedListings(search: "other").watched.isEmpty, "watched per search")

    let browsable = try #require(store as? any BrowsableStore)
    #expect(try browsable.textChanges(of: flat.key) == [change])
    #expect(try browsable.history(flat.key)?.textChanges == [change])
    let owed = try store.owedDeliveries(maxAttempts: 5)
    #expect(owed.map(\.listing.event?.kind) == [.changed])
    #expect(owed.first?.listing.alert?.change == "description: Two rooms. {+Pets welcome.+}")

    // No longer starred: watched no more once the search's next record writes its watches.
    try store.setMark(.unstar, on: [flat.key], at: Self.later)
    #expect(try store.markedListings(search: "flats").watched.isEmpty)
    var third = Self.record([changed], at: Self.later.addingTimeInterval(60))
    third.alerts.watched = [repost: WatchedSource(source: "https://a.example/flats")]
    try store.record(third)
    try store.setMark(.star, on: [flat.key], at: Self.later)
    #expect(try store.markedListings(search: "flats").watched[flat.key] == nil)

    // A starred listing keeps its story through a prune (its text changes too); unstarred, it
    // is pruned with them.
    let late = Self.later.addingTimeInterval(86_400 * 30)
    var counts = try store.prune(now: late, retention: 86_400)
    #expect(counts.rows["listings", default: 0] == 1)
    #expect(try browsable.textChanges(of: flat.key) == [change])
    try store.setMark(.unstar, on: [flat.key], at: late)
    counts = try store.prune(now: late, retention: 86_400)
    #expect(counts.rows["listings", default: 0] == 1)
    #expect(try browsable.textChanges(of: flat.key).isEmpty)
  }

  /// A listing whose text flips on every poll keeps two old texts, not one a poll for ever, and
  /// any listing at most five (issue 40: 9.6 MB of old texts a poll for 2,000 such listings).
  @Test(arguments: StoreKind.built)
  func textChangesAreBoundedPerListing(kind: StoreKind) throws {
    let store = try kind.open()
    let browsable = try #require(store as? any BrowsableStore)
    let texts = ["Two rooms.", "Two rooms, balcony."]
    var flat = Listing(
      id: "1", site: "feed", url: "https://a.example/1", title: "Sunny flat",
      description: texts[0], price: 900)
    try store.record(Self.record([flat], at: Self.start))
    // Poll `poll` finds the listing's description changed to `text`.
    func change(to text: String, poll: Int) throws {
      let at = Self.start.addingTimeInterval(Double(poll) * 60)
      let change = TextChange(
        oldTitle: flat.title, oldDescription: flat.description, changedAt: at)
      flat.description = text
      var next = Self.record([flat], at: at)
      next.alerts.textChanges = [flat.key: change]
      try store.record(next)
    }
    for poll in 1...10 { try change(to: texts[poll % 2], poll: poll) }
    let kept = try browsable.textChanges(of: flat.key)
    #expect(kept.map(\.oldDescription) == [texts[1], texts[0]], "newest first, once each")
    #expect(kept.first?.changedAt == Self.start.addingTimeInterval(600))
    // Twenty different texts: the newest five are kept.
    for poll in 11...30 { try change(to: "Text \(poll)", poll: poll) }
    let newest = try browsable.textChanges(of: flat.key)
    #expect(newest.count == 5)
    #expect(newest.first?.oldDescription == "Text 29")
    #expect(newest.last?.oldDescription == "Text 25")
  }
}
