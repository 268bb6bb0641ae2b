internal import ClarissaCore
internal import ListingStore
internal import Presentation

/// Deal context (``DealContext``) and warning signs (``ListingSignal``) on the cards and the
/// listing page: filled from the store when the page is made, each search's market read once a
/// page. Only the context lines: the pages
/// show the marks from the listing's own row (`FoundListing.marks`, `ListingHistory.marks`).
extension WebApp {
  /// `page` with each listing's context in its ``Listing/alert``.
  func withContext(_ page: ListingPage) throws -> ListingPage {
    let book = DealContextBook(
      memory: store, now: clock(), cache: markets, stamp: try store.health().lastAttempt)
    var page = page
    let signals = try store.signals(of: page.listings.map(\.listing.key))
    for index in page.listings.indices {
      page.listings[index].listing.signals = signals[page.listings[index].listing.key] ?? []
    }
    for search in Set(page.listings.map(\.search)) {
      let indices = page.listings.indices.filter { page.listings[$0].search == search }
      let lines = try book.lines(for: indices.map { page.listings[$0].listing }, search: search)
      for index in indices {
        Self.setContext(&page.listings[index].listing, lines)
      }
    }
    return page
  }

  /// `history` with its listing's context, as the first search that saw it (by name) has it.
  func withContext(_ history: ListingHistory?) throws -> ListingHistory? {
    guard var history else { return nil }
    history.listing.signals =
      try store.signals(of: [history.listing.key])[
        history.listing.key] ?? []
    guard let search = history.searches.first?.search else { return history }
    let lines = try DealContextBook(memory: store, now: clock())
      .lines(for: [history.listing], search: search)
    Self.setContext(&history.listing, lines)
    return history
  }

  private static func setContext(_ listing: inout Listing, _ lines: [ListingKey: [String]]) {
    guard let found = lines[listing.key] else { return }
    var alert = listing.alert ?? ListingAlert()
    alert.context = found
    listing.alert = alert
  }
}

extension Pages {
  /// A listing's warning signs (`⚠ ...`, class `signal`) and context lines, or nothing.
  static func context(_ listing: Listing) -> HTML {
    let lines = listing.alert?.context ?? []
    guard !lines.isEmpty || !listing.signals.isEmpty else { return .empty }
    let signs = listing.signals.map {
      "<li class=\"signal\">⚠ \(SafeText.line($0.text))</li>" as HTML
    }
    return "<ul class=\"context\">\(signs)\(lines.map { "<li>\($0)</li>" as HTML })</ul>"
  }
}
