package import ClarissaCore
package import Foundation

/// How a site's search page, pasted from the browser, becomes the site's first request
/// (`search_url:` in a definition): which hosts and paths are search pages, the request's URL
/// made from the path's parts, which of the pasted query's pairs go with it, and what the site
/// sets itself (its newest-first order).
package struct SearchURLSpec: Sendable {
  /// Hosts whose pages these are, lower case (`www.kleinanzeigen.de`).
  package var hosts: [String]
  /// Edits of the pasted path before it is matched (a pasted sort or page taken out).
  package var edits: [PathEdit]
  /// What a search page's path looks like (anchored); named groups are `{url.NAME}`, and a
  /// group `city` or `category` is the search's city or category.
  package var path: NSRegularExpression
  /// The names of `path`'s groups.
  package var groups: [String]
  /// The request's URL (`{url.path|raw}`, `{url.geocode}`, `{category.code}`).
  package var request: URLTemplate
  /// The pasted pairs that go with the request: all of them when nil.
  package var keep: [String]?
  /// Pasted pairs left out (with `keep` all).
  package var drop: [String]
  /// Pairs a search page of the site must carry (flatfox's map area).
  package var require: [String]
  /// Pairs the site sets, replacing pasted ones of the same name.
  package var set: [(name: String, value: String)]
  /// Pasted URLs and their requests, run by a test like the site's fixtures.
  package var examples: [SearchURLExample]
  /// Where each example was written, for a located error when it does not hold.
  package var exampleLocations: [SourceLocation] = []

  /// One `replace: [regex, replacement]` of the path.
  package struct PathEdit: Sendable {
    var pattern: NSRegularExpression
    var replacement: String
  }

  /// The edited path and its groups, when `url` is a search page of the site.
  package func match(_ url: SearchURL) -> (path: String, groups: [String: String])? {
    var path = url.path
    for edit in edits {
      path = edit.pattern.stringByReplacingMatches(
        in: path, range: NSRange(path.startIndex..., in: path), withTemplate: edit.replacement)
    }
    guard let found = self.path.firstMatch(in: path, range: NSRange(path.startIndex..., in: path))
    else { return nil }
    var values: [String: String] = [:]
    for name in groups {
      let range = found.range(withName: name)
      if range.location != NSNotFound, let swiftRange = Range(range, in: path) {
        values[name] = String(path[swiftRange])
      }
    }
    return (path, values)
  }

  /// The pasted pairs that go with the request, then what the site sets.
  package func query(_ url: SearchURL) -> [SearchURL.Pair] {
    url.query.filter { pair in
      !pair.written.isEmpty && (keep?.contains(pair.name) ?? !drop.contains(pair.name))
    }
  }
}
