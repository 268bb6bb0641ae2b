package import ClarissaCore
internal import Foundation

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

  /// Each `search_url` example read as a config reads a pasted URL: an error at the example
  /// when no search is made of its URL, or when the search's request is not the one written.
  package func searchURLProblems() -> [Diagnostic] {
    guard let spec = definition.searchURL else { return [] }
    return zip(spec.examples, spec.exampleLocations).compactMap { example, location in
      searchURLProblem(example).map { Diagnostic.error($0, at: location) }
    }
  }

  private func searchURLProblem(_ example: SearchURLExample) -> String? {
    guard let url = SearchURL(example.url) else { return nil }  // the reader says so
    switch readSearchURL(url) {
    case nil:
      return "the example '\(example.url)' is not taken: its host is not one of 'hosts'"
    case .refused(let reason)?:
      return "the example '\(example.url)' is not taken: \(reason)"
    case .search(let city, let category)?:
      var search = Search(
        name: "example", site: id, category: category, cities: city.map { [CityRef($0)] } ?? [])
      search.url = url
      let made = requests(for: search).map(\.url)
      guard made != [example.request] else { return nil }
      return "the example '\(example.url)' makes the request "
        + (made.first.map { "'\($0)'" } ?? "nothing") + ", not '\(example.request)' as written"
    }
  }
}
