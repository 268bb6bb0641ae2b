import ClarissaCore
import Foundation
import ListingStore

/// Deal context (``DealContext``) on the cards and the listing page: filled from the store when
/// the page is made, each search's market read once a page.
extension WebApp {
  /// `page` with each listing's context in its ``Listing/alert``.
  func withContext(_ page: ListingPage) throws -> ListingPage {
    let book = DealContextBook(memory: store, now: clock())
    var page = page
    for search in Set(page.listings.map(\.search)) {
      let indices = page.listings.indices.filter { page.listings[$0].search == search }
      let annotated = try book.annotated(indices.map { page.listings[$0].listing }, search: search)
      for (index, listing) in zip(indices, annotated) { page.listings[index].listing = listing }
    }
    return page
  }

  /// `history` with its listing's context.
  func withContext(_ history: ListingHistory?) throws -> ListingHistory? {
    try history.map { try DealContextBook(memory: store, now: clock()).annotated($0) }
  }
}

extension Pages {
  /// A listing's context lines, or nothing.
  static func context(_ listing: Listing) -> String {
    let lines = listing.alert?.context ?? []
    guard !lines.isEmpty else { return "" }
    return "<ul class=\"context\">" + lines.map { "<li>\(e($0))</li>" }.joined() + "</ul>"
  }
}
