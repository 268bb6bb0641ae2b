internal import ClarissaCore
internal import Foundation
internal import YAML

/// `url:` in a search: a site's own search page pasted from the browser. The URL names the site
/// (a `site:` that disagrees is an error), the place and the category; the site's filters stay
/// in it, and clarissa's own filters apply on top.
extension ConfigReader {
  /// What a site read from a search's `url:`.
  struct PastedSearch {
    let site: any FeedSource
    let url: SearchURL
    let city: String?
    let category: String?
  }

  /// The site that takes the search's `url:` and what it read; nil (after an error) when none.
  func readPastedURL(_ node: Node, ownSite: (id: String, node: Node?)?, context: String)
    -> PastedSearch?
  {
    guard let text = expandedString(node, "'url' in \(context)") else { return nil }
    guard let url = SearchURL(text) else {
      error("'url' in \(context) is not an http or https URL: '\(text)'", at: node)
      return nil
    }
    let named = ownSite?.id
    let takers = sites.all.compactMap { site in site.readSearchURL(url).map { (site, $0) } }
    guard let (site, reading) = takers.first else {
      if let named, sites.site(named) != nil {
        error(
          "site '\(named)' does not take '\(text)' ('url' in \(context))" + feedHint(url),
          at: node)
      } else {
        error(noTakerMessage(text, url, context: context), at: node)
      }
      return nil
    }
    if let named, named != site.id {
      let siteNode = ownSite?.node ?? node
      error(
        "'site: \(named)' disagrees with 'url' in \(context), a \(site.displayName) search; "
          + "leave 'site' out (the URL names it)", at: siteNode)
      return nil
    }
    switch reading {
    case .refused(let reason):
      error("'url' in \(context) is on \(site.displayName), but \(reason)", at: node)
      return nil
    case .search(let city, let category):
      return PastedSearch(site: site, url: url, city: city, category: category)
    }
  }

  /// "no site takes ...; sites that take search URLs: craigslist (e.g. ...), ..."
  private func noTakerMessage(_ text: String, _ url: SearchURL, context: String) -> String {
    let takers = sites.all.filter { !$0.searchURLExamples.isEmpty }
    let example = takers.first?.searchURLExamples.first.map { " (e.g. \($0.url))" } ?? ""
    return "no site takes '\(text)' ('url' in \(context)); "
      + SiteCatalog.named(takers.map(\.id), "sites that take search URLs") + example
      + feedHint(url)
  }

  private func feedHint(_ url: SearchURL) -> String {
    url.looksLikeFeed
      ? "; it looks like a feed: write 'site: feed' and 'feeds: [\(url.text)]' instead of 'url'"
      : ""
  }

  /// A search's own keys that a pasted URL carries are errors; from `defaults` they are left
  /// out. The lookup without them.
  func withoutCarriedKeys(_ scope: SearchLookup, site: any FeedSource) -> SearchLookup {
    let kept = Set(site.parameters.filter(\.keptWithURL).map(\.name))
    let carried = Set(SearchKey.carriedByURL + site.parameters.map(\.name)).subtracting(kept)
    for entry in scope.own.entries where carried.contains(entry.key) {
      error(
        "'\(entry.key)' in \(scope.context) is not used with 'url': the pasted URL carries the "
          + "search (set it on \(site.displayName)'s search page and paste the address again; "
          + "'price' and 'filters' apply on top)", at: entry.keyNode)
    }
    func strip(_ table: Table) -> Table {
      Table(node: table.node, entries: table.entries.filter { !carried.contains($0.key) })
    }
    var lookup = SearchLookup(
      own: strip(scope.own), defaults: scope.defaults.map(strip), context: scope.context)
    lookup.pasted = true
    return lookup
  }
}
