internal import ClarissaCore
internal import Foundation
internal import SiteFormat
internal import Sites

/// A declared site against the hand-written Swift reader on the same page: Craigslist's static
/// HTML search page (Fixtures/craigslist/newyork-apa-search-1.html) read by
/// `SearchPageReader` and by `Fixtures/sites/bench/craigslist-html.yaml`. The target:
/// the declaration at no less than half the Swift reader's speed.
struct SiteBenchmark {
  let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

  func run() {
    print("Site definitions (the Craigslist HTML search page)")
    let page = root.appendingPathComponent("Fixtures/craigslist/newyork-apa-search-1.html")
    let definition = root.appendingPathComponent("Fixtures/sites/bench/craigslist-html.yaml")
    guard let body = FileManager.default.contents(atPath: page.path).map(Array.init),
      let swift = Registry.sites.site("craigslist"),
      let declared = DefinitionLoader.site(atPath: definition.path).site
    else {
      print("  (run from the repository root: the page or the definition is missing)\n")
      return
    }
    let url = "https://www.craigslist.org/search/subarea/mnh?cat=apa"
    let swiftRequest = swift.request(forSavedResponseIn: "html", city: "newyork/mnh", url: url)
    let declaredRequest = declared.request(forSavedResponseIn: "page", city: "newyork", url: url)
    let byHand =
      (try? swift.listings(from: SourceResponse(request: swiftRequest, body: body)))?
      .listings ?? []
    let byDeclaration =
      (try? declared.listings(from: SourceResponse(request: declaredRequest, body: body)))?
      .listings ?? []
    let same = zip(byHand, byDeclaration).filter {
      $0.id == $1.id && $0.title == $1.title && $0.price == $1.price && $0.url == $1.url
    }.count
    let swiftTime = Bench.measure(runs: 15) {
      (try? swift.listings(from: SourceResponse(request: swiftRequest, body: body))) as Any
    }
    let declaredTime = Bench.measure(runs: 15) {
      (try? declared.listings(from: SourceResponse(request: declaredRequest, body: body))) as Any
    }
    print(
      "  Swift reader (SearchPageReader, also pairs the JSON-LD): \(Bench.format(swiftTime)) ms, "
        + "\(byHand.count) listings")
    print(
      "  declared (XPath through libxml2, filters): \(Bench.format(declaredTime)) ms, "
        + "\(byDeclaration.count) listings, \(same) with the same id, URL, title and price")
    print(
      "  the declaration reads at \(Bench.format(swiftTime / max(declaredTime, 0.001) * 100))% "
        + "of the Swift reader's speed (target: at least 50%)\n")
  }
}
