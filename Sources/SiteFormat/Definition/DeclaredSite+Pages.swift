/// A site that can say whether its search's first request reads an HTML page, the page a
/// browser shows: what a page captured from the person's browser can stand in for
/// (`POST /capture`). A site read through a JSON API cannot be read from a captured page.
package protocol HTMLPageReading {
  /// Whether the first request of a search is read as HTML (`read: as: html`).
  var readsHTMLPages: Bool { get }
}

extension DeclaredSite: HTMLPageReading {
  package var readsHTMLPages: Bool { definition.steps.first?.read.format == .html }
}
