import ClarissaCore
import Foundation
import ListingStore
import Testing

/// `clarissa show ID` of a listing whose text changed twice: a "text changed:" section, newest
/// first, each change a word diff to the text that followed it; none for a listing never changed.
@Suite struct ShowTextChangesTests {
  @Test func showHasATextChangedSectionNewestFirst() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-show-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let state = folder.appendingPathComponent("clarissa.db").path
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    let store = try ListingStore.open(path: state, readOnly: false)
    var listing = Listing(
      id: "77", site: "craigslist", url: "https://sfbay.craigslist.org/77.html",
      title: "iPad mini 2", description: "Works fine.", price: 90)
    let quiet = Listing(
      id: "78", site: "craigslist", url: "https://sfbay.craigslist.org/78.html",
      title: "iPad 3", price: 60)
    try store.record(
      SearchRecord(search: "ipads", now: start, seen: [listing, quiet], reached: true))
    for (step, (title, description)) in [
      ("iPad mini 2 32GB", "Works fine."), ("iPad mini 2 32GB", "Works fine. Charger included."),
    ].enumerated() {
      let now = start.addingTimeInterval(Double(step + 1) * 3600)
      var record = SearchRecord(search: "ipads", now: now, reached: true)
      record.alerts.textChanges[listing.key] = TextChange(
        oldTitle: listing.title, oldDescription: listing.description, changedAt: now)
      listing.title = title
      listing.description = description
      record.seen = [listing]
      try store.record(record)
    }

    let shown = try StateCommandTests.clarissa([
      "show", "77", "--state", state, "--now", "2026-09-20T00:00:00Z",
    ])
    #expect(shown.status == 0, "\(shown.stderr)")
    let section = shown.stdout.components(separatedBy: "text changed:\n").last ?? ""
    let lines = section.split(separator: "\n").map(String.init)
    #expect(lines.count == 4, "\(shown.stdout)")
    #expect(lines[1] == "    description: Works fine. {+Charger included.+}")
    #expect(lines[3] == "    title: iPad mini 2 {+32GB+}")
    #expect(lines[0].hasPrefix("  ") && lines[2].hasPrefix("  "))
    let other = try StateCommandTests.clarissa(["show", "78", "--state", state])
    #expect(other.status == 0 && !other.stdout.contains("text changed"), "\(other.stderr)")
  }
}
