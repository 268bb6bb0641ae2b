import ClarissaCore
import ClarissaEngine
import Foundation
import ListingText
import Sites

/// What a poll pays for a feed: the corpus read through the run's path (the generic feed
/// adapter's `listings(from:)`: parse with descriptions left as HTML, listings, prices), then a
/// lookup of every key, then text made only for the listings not known.
extension FeedBenchmark {
  /// The poll where every listing is already known, and the first poll where none is, beside
  /// `xmllint` (`reference` ms, measured in this run) and the full parse with conversion.
  func poll(_ corpus: [UInt8], reference: Double, fullParse: Double) {
    let request = RequestSpec(
      url: "https://sfbay.craigslist.org/search/apa?format=rss", mode: "feed")
    let response = SourceResponse(request: request, body: corpus)
    let site = GenericFeedSite()
    let all = (try? site.listings(from: response))?.listings ?? []
    // Stands in for the listing store until it is merged: the lead swaps it for `lookUp`.
    let everyKey = Set(all.map(\.key))
    var read = (listings: 0, converted: 0)
    let known = Bench.measure(runs: 5) { read = Self.poll(site, response, known: everyKey) }
    let knownCount = read
    let fresh = Bench.measure(runs: 5) { read = Self.poll(site, response, known: []) }
    let percent = { (ms: Double) in Int((reference / ms * 100).rounded()) }
    print(
      "  a poll where every id is known (parse + listings + key lookup in a Set of all ids,"
        + " standing in for the store): \(Bench.format(known)) ms,"
        + " \(Bench.format(Bench.throughput(corpus.count, known))) MB/s,"
        + " \(knownCount.listings) listings, \(knownCount.converted) converted:"
        + " \(percent(known))% of xmllint's throughput (target: >= 60%)")
    print(
      "    reference, the full parse with conversion (FeedParser.parse, every description):"
        + " \(percent(fullParse))% of xmllint")
    print(
      "    the first poll (nothing known: \(read.converted) descriptions made text):"
        + " \(Bench.format(fresh)) ms, \(percent(fresh))% of xmllint")
    let bestKnown = Bench.fastest(runs: 7) { _ = Self.poll(site, response, known: everyKey) }
    print(
      "    fastest of 7: the known poll \(Bench.format(bestKnown)) ms,"
        + " \(percent(bestKnown))% of xmllint's median")
    let untitled = SourceResponse(request: request, body: Self.withoutTitlePrices(corpus))
    let noPrices = Bench.measure(runs: 5) { _ = Self.poll(site, untitled, known: everyKey) }
    print(
      "    the known poll if no title named a price (descriptions with a digit made text for"
        + " their price): \(Bench.format(noPrices)) ms, \(percent(noPrices))% of xmllint")
  }

  /// The corpus with the price taken out of every title (`&#x0024;4300` in Craigslist's).
  static func withoutTitlePrices(_ corpus: [UInt8]) -> [UInt8] {
    let text = String(decoding: corpus, as: UTF8.self)
    guard let price = try? NSRegularExpression(pattern: #"(title><!\[CDATA\[[^\]]*?) &#x0024;\d+"#)
    else { return corpus }
    let range = NSRange(text.startIndex..., in: text)
    return Array(
      price.stringByReplacingMatches(in: text, range: range, withTemplate: "$1").utf8)
  }

  /// Polls the corpus `times` times with every id known and nothing else, for `perf record`.
  func profilePoll(times: Int) {
    guard
      let sample = FileManager.default.contents(
        atPath: fixtures.appendingPathComponent("craigslist/sfbay-apa-1.xml").path)
    else { return }
    let request = RequestSpec(url: "https://sfbay.craigslist.org/search/apa", mode: "feed")
    let response = SourceResponse(
      request: request, body: Self.corpus(from: Array(sample), targetBytes: 5_000_000))
    let site = GenericFeedSite()
    let known = Set(((try? site.listings(from: response))?.listings ?? []).map(\.key))
    for _ in 0..<times { _ = Self.poll(site, response, known: known) }
  }

  /// One poll: the listings, the keys looked up, the unknown ones resolved; what it counted.
  private static func poll(
    _ site: GenericFeedSite, _ response: SourceResponse, known: Set<ListingKey>
  ) -> (listings: Int, converted: Int) {
    let listings = (try? site.listings(from: response))?.listings ?? []
    let unknown = listings.filter { !known.contains($0.key) }
    let pending = unknown.filter(\.isDescriptionPending).count
    _ = ListingDescription.resolve(unknown)
    return (listings.count, pending)
  }
}
