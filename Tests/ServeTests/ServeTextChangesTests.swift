import ClarissaCore
import Foundation
import ListingStore
import Testing

/// A listing whose text changed: its page has a "Text changed" section, each change a word
/// diff with the words removed in `<del>` and added in `<ins>`, every word escaped.
@Suite struct ServeTextChangesTests {
  @Test func theListingPageShowsEachTextChangeAsAWordDiff() throws {
    var listing = ServeFixture.listing("1001", title: "Sunny flat")
    listing.description = "Two rooms <b>bright</b>."
    let fixture = try ServeFixture(listings: ["flats": [listing]])
    var changed = listing
    changed.title = "Sunny flat, pets welcome"
    changed.description = "Two rooms <b>bright</b>, <script>x</script>."
    var record = SearchRecord(
      search: "flats", now: fixture.now.addingTimeInterval(60), seen: [changed], reached: true)
    record.alerts.textChanges[listing.key] = TextChange(
      oldTitle: listing.title, oldDescription: listing.description,
      changedAt: fixture.now.addingTimeInterval(60))
    try fixture.store.record(record)

    let page = fixture.text(fixture.get("/listing/craigslist/1001"))
    #expect(page.contains("<h2>Text changed</h2>"), "\(page)")
    #expect(
      page.contains(
        "<div class=\"diff\"><b>title</b>: Sunny <del>flat</del> <ins>flat, pets welcome</ins>"
          + "</div>"), "\(page)")
    #expect(
      page.contains(
        "<b>description</b>: Two rooms <del>&lt;b&gt;bright&lt;/b&gt;.</del> "
          + "<ins>&lt;b&gt;bright&lt;/b&gt;, &lt;script&gt;x&lt;/script&gt;.</ins>"), "\(page)")
    #expect(!page.contains("<script>x"))
    // A listing whose text never changed has no such section.
    let other = try ServeFixture(listings: ["flats": [listing]])
    #expect(!other.text(other.get("/listing/craigslist/1001")).contains("Text changed"))
  }
}
