package import ClarissaCore

/// A query string as pairs, for requests made from a pasted URL: the site's own pairs, then the
/// pasted ones as written, then what the site sets (its newest-first order). A name given later
/// replaces every earlier pair of that name, in the place of the first, so a pasted
/// `pricetype=...` replaces the site's and a pasted `sort=priceasc` gives way to the site's sort.
package struct QueryPairs {
  package private(set) var pairs: [SearchURL.Pair] = []

  /// The pairs of an encoded query string (`a=1&b=2`).
  package init(encoded: String = "") {
    pairs = SearchURL("http://host/?" + encoded)?.query ?? []
  }

  /// Puts `overlay` in: each name it gives replaces that name's earlier pairs (in the place of
  /// the first); names new here follow in their order.
  package mutating func overlay(_ overlay: [SearchURL.Pair]) {
    let names = Set(overlay.map(\.name))
    var placed = Set<String>()
    var merged: [SearchURL.Pair] = []
    for pair in pairs {
      guard names.contains(pair.name) else {
        merged.append(pair)
        continue
      }
      if placed.insert(pair.name).inserted { merged += overlay.filter { $0.name == pair.name } }
    }
    pairs = merged + overlay.filter { !placed.contains($0.name) }
  }

  /// Sets `name` to `value` (encoded here), replacing what was there.
  package mutating func set(_ name: String, _ value: String) {
    let written = URLQuery.escape(name) + "=" + URLQuery.escape(value)
    overlay([SearchURL.Pair(name: name, written: written)])
  }

  /// The query string (empty when there are no pairs).
  package var encoded: String { pairs.map(\.written).joined(separator: "&") }

  /// `url` with the query appended.
  package func appended(to url: String) -> String {
    encoded.isEmpty ? url : url + (url.contains("?") ? "&" : "?") + encoded
  }
}
