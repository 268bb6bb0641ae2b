import ClarissaCore
import Foundation

/// A declared site's search pages pasted from the browser, as its `search_url:` says.
extension DeclaredSite {
  package func readSearchURL(_ url: SearchURL) -> SearchURLReading? {
    guard let spec = definition.searchURL, spec.hosts.contains(url.host) else { return nil }
    let example = spec.examples.first.map { " such as \($0.url)" } ?? ""
    guard let match = spec.match(url) else {
      return .refused(
        "it is not a \(definition.name) search page that \(definition.file) reads; paste the "
          + "address of a search\(example)")
    }
    let missing = spec.require.filter { url.values($0).isEmpty }
    if !missing.isEmpty {
      return .refused(
        "a \(definition.name) search URL needs "
          + missing.map { "'\($0)'" }.joined(separator: ", ")
          + " in its query (paste the address after the search has run)")
    }
    let category = match.groups["category"]
    if let category, let table = definition.categories, table.table[category] == nil {
      let known = table.order.map { "'\($0)' (\(table.table[$0]?["name"] ?? ""))" }
      return .refused(
        "its kind of search, '\(category)', is not one \(definition.file) reads (it reads "
          + known.joined(separator: ", ") + ")")
    }
    let city = match.groups["city"].map { $0.removingPercentEncoding ?? $0 }
    return .search(city: city, category: category)
  }

  package var searchURLExamples: [SearchURLExample] { definition.searchURL?.examples ?? [] }
}
