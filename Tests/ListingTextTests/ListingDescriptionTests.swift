import ClarissaCore
import ListingText
import Testing

/// A listing's pending description HTML made plain text on demand: the text replaces the HTML,
/// a listing with nothing pending is left as it is, and resolving twice changes nothing.
@Suite struct ListingDescriptionTests {
  static func pending(_ html: String) -> Listing {
    var listing = Listing(id: "1", site: "feed", url: "https://e.x/1", title: "Desk")
    listing.descriptionHTML = html
    return listing
  }

  @Test func thePendingHTMLBecomesTheDescription() {
    let resolved = ListingDescription.resolve(Self.pending("<p>Oak &amp; steel</p>"))
    #expect(resolved.description == "Oak & steel")
    #expect(resolved.descriptionHTML == nil)
    #expect(ListingDescription.resolve(resolved) == resolved, "resolving twice changes nothing")
  }

  @Test func aListingWithNothingPendingIsUnchanged() {
    let listing = Listing(
      id: "2", site: "feed", url: "https://e.x/2", title: "Chair", description: "As it was")
    #expect(ListingDescription.resolve(listing) == listing)
    #expect(ListingDescription.resolve([listing, listing]) == [listing, listing])
  }

  @Test func plainTextDropsTheTagsAndReadsTheEntities() {
    let text = ListingDescription.plainText(fromHTML: "<div><b>Oak</b> &amp; <i>steel</i></div>")
    #expect(text == "Oak & steel")
  }
}
