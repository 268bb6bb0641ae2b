internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

/// 20 filters (text and regex, include and exclude, title and description) over 100,000
/// listings, beside the same number of plain case-insensitive substring searches.
struct FilterBenchmark {
  func run() {
    print("\nFilters (20 rules x 100,000 listings)")
    let words = [
      "aeron", "chair", "desk", "bike", "ipad", "sofa", "lamp", "table", "camera", "drill",
    ]
    let listings = (0..<100_000).map { index in
      Listing(
        id: String(index), site: "bench", url: "https://example.org/\(index)",
        title: "Used \(words[index % 10]) in good shape, model \(index % 977)",
        description:
          "Pick up in town. \(words[(index / 10) % 10]) and more; cash only. Ref \(index)",
        price: Double(index % 900))
    }
    let filters = words.enumerated().flatMap { index, word -> [Filter] in
      [
        try? Filter(index % 3 == 0 ? .include : .exclude, on: .both, pattern: word + "x"),
        try? Filter(
          index % 2 == 0 ? .include : .exclude, on: index % 2 == 0 ? .title : .description,
          pattern: "\\b\(word)s?\\b.*\\d{3}", isRegex: true),
      ].compactMap { $0 }
    }
    let search = Search(
      name: "bench", site: "bench", price: PriceRange(min: 10, max: 800), filters: filters)
    var kept = 0
    let time = Bench.measure(runs: 3) { () -> Int in
      kept = listings.reduce(0) { $0 + (ListingFilter.accepts($1, for: search) ? 1 : 0) }
      return kept
    }
    let plain = Bench.measure(runs: 3) { () -> Int in
      var hits = 0
      for listing in listings {
        for word in words + words
        where listing.title.range(of: word, options: .caseInsensitive) != nil { hits += 1 }
      }
      return hits
    }
    print(
      "  \(kept) of 100,000 kept in \(Bench.format(time)) ms (\(Int(100_000 / (time / 1000))) listings/s)"
    )
    print("    beside 2,000,000 plain case-insensitive title searches: \(Bench.format(plain)) ms")
  }
}
