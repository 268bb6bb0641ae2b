import ClarissaCore
import Foundation
import Testing

/// The word diff of a listing's text change: minimal edits, merged runs, context cut, and the
/// bound that keeps a hostile description linear.
@Suite struct WordDiffTests {
  @Test func aReplacedWordIsARemovalThenAnAddition() {
    #expect(
      WordDiff.diff("iPad mini 2 32GB", "iPad air 2 32GB") == [
        .same("iPad"), .removed("mini"), .added("air"), .same("2 32GB"),
      ])
    #expect(WordDiff.plain(WordDiff.diff("iPad mini 2", "iPad air 2")) == "iPad [-mini-] {+air+} 2")
  }

  @Test func theLongestCommonSubsequenceKeepsWhatBothShare() {
    // a b c d e -> a c d f e: b removed, f added, a c d e kept.
    #expect(
      WordDiff.diff("a b c d e", "a c d f e") == [
        .same("a"), .removed("b"), .same("c d"), .added("f"), .same("e"),
      ])
    #expect(WordDiff.diff("", "new words") == [.added("new words")])
    #expect(WordDiff.diff("old words", "") == [.removed("old words")])
    #expect(WordDiff.diff("same  text\n", "same text") == [.same("same text")])
    #expect(WordDiff.sameWords("a  b\n", "a b"))
  }

  @Test func longUnchangedRunsAreCutToTheirContext() {
    let old = (1...40).map(String.init).joined(separator: " ")
    let new = old.replacingOccurrences(of: " 20 ", with: " twenty ")
    #expect(
      WordDiff.plain(WordDiff.diff(old, new), context: 3)
        == "… 17 18 19 [-20-] {+twenty+} 21 22 23 …")
  }

  @Test func aHostileDescriptionIsBoundedNotQuadratic() {
    // 20,000 words changed in the middle (100 KB and more): told as one removal and one
    // addition, fast, instead of a table of 400 million cells.
    let middle = WordDiff.maxMiddle + 1
    let old = "start " + (0..<20_000).map { "w\($0)" }.joined(separator: " ") + " end"
    let new = "start " + (0..<20_000).map { "v\($0)" }.joined(separator: " ") + " end"
    let began = Date()
    let parts = WordDiff.diff(old, new)
    #expect(Date().timeIntervalSince(began) < 2)
    #expect(parts.count == 4 && parts.first == .same("start") && parts.last == .same("end"))
    // Just past the bound on one side, the same.
    let wide = (0..<middle).map { "x\($0)" }.joined(separator: " ")
    #expect(
      WordDiff.diff("a " + wide + " z", "a y z") == [
        .same("a"), .removed(wide), .added("y"), .same("z"),
      ])
  }

  @Test func aTextChangeSaysWhichFieldsChangedAndStepsThroughItsHistory() {
    let listing = Listing(
      id: "1", site: "craigslist", url: "", title: "Sunny flat",
      description: "Pets welcome. Two rooms.")
    let first = TextChange(
      oldTitle: "flat", oldDescription: "Two rooms.", changedAt: Date(timeIntervalSince1970: 0))
    let second = TextChange(
      oldTitle: "Sunny flat", oldDescription: "Two rooms.",
      changedAt: Date(timeIntervalSince1970: 60))
    #expect(second.plainDiff(to: listing) == "description: {+Pets welcome.+} Two rooms.")
    #expect(first.differs(from: listing) && second.differs(from: listing))
    let spaced = TextChange(
      oldTitle: "Sunny  flat", oldDescription: "Pets welcome.\nTwo rooms.", changedAt: .now)
    #expect(!spaced.differs(from: listing), "white space is no change")
    let steps = TextChange.steps([second, first], to: listing)
    #expect(steps.map { $0.diffs.map(\.field) } == [["description"], ["title"]])
    #expect(WordDiff.plain(steps[1].diffs[0].parts) == "{+Sunny+} flat")
  }
}
