import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// Marks (star, hide, note) on both stores: set, kept, cleared, listed, and counted only when
/// they change.
@Suite(.serialized) struct StoreMarksTests {
  static let start = StoreSamples.start

  @Test(arguments: StoreKind.built)
  func marksAreSetKeptAndClearedAndAListingWithoutAnyHasNoRow(kind: StoreKind) throws {
    let store = try kind.open()
    let (a, b) = (ListingKey(site: "craigslist", id: "1"), ListingKey(site: "flatfox", id: "x"))
    #expect(try store.marks(of: [a, b]).isEmpty)
    #expect(try store.setMark(.star, on: [a, b], at: Self.start) == 2)
    // Starred again later: no change, the first time stays.
    #expect(try store.setMark(.star, on: [a], at: Self.start.addingTimeInterval(60)) == 0)
    #expect(try store.marks(of: [a])[a]?.starredAt == Self.start)
    #expect(try store.setMark(.hide, on: [b], at: Self.start.addingTimeInterval(120)) == 1)
    #expect(try store.setMark(.note(" call \u{7}after 6\n"), on: [a], at: Self.start) == 1)
    let marks = try store.marks(of: [a, b])
    #expect(
      marks[a] == ListingMarks(starredAt: Self.start, note: "call after 6", notedAt: Self.start))
    #expect(marks[b]?.hidden == true && marks[b]?.starred == true)
    #expect(try store.markedKeys(.starred) == [a, b] || store.markedKeys(.starred) == [b, a])
    #expect(try store.markedKeys(.hidden) == [b])
    #expect(try store.markedKeys(.noted) == [a])
    #expect(try store.setMark(.unstar, on: [a], at: Self.start) == 1)
    #expect(try store.setMark(.note(nil), on: [a], at: Self.start) == 1)
    // Nothing left on a: its row is gone, not an empty one.
    #expect(try store.marks(of: [a, b]).keys.sorted { $0.id < $1.id } == [b])
    #expect(try store.setMark(.unhide, on: [b], at: Self.start) == 1)
    #expect(try store.setMark(.unstar, on: [b], at: Self.start) == 1)
    #expect(try store.marks(of: [a, b]).isEmpty)
    let long = String(repeating: "é", count: ListingMarks.noteLimit + 50)
    try store.setMark(.note(long), on: [a], at: Self.start)
    #expect(try store.marks(of: [a])[a]?.note?.count == ListingMarks.noteLimit)
  }
}
