internal import ClarissaCore
internal import ClarissaEngine
internal import Feeds
internal import Foundation
internal import ListingStore
internal import ListingText
internal import Sites

/// What a poll pays for a feed: the corpus read through the run's path (the generic feed
/// adapter's `listings(from:)`: parse with descriptions left as HTML, listings, prices), then a
/// lookup of every key, then text made only for the listings not known.
extension FeedBenchmark {
  /// The poll where every listing is already known, beside `xmllint --stream --noout` on the
  /// same file and the full parse with conversion, measured in interleaved rounds (the machine
  /// is shared: a neighbour's build then slows all three alike).
  func poll(_ corpus: [UInt8], file: String, xmllint: String) {
    let request = RequestSpec(
      url: "https://sfbay.craigslist.org/search/apa?format=rss", mode: "feed")
    let response = SourceResponse(request: request, body: corpus)
    let site = GenericFeedSite()
    let all = (try? site.listings(from: response))?.listings ?? []
    // A real store holding every listing of the corpus, as after an earlier poll.
    guard let store = try? Self.store(holding: all, in: folder) else {
      print("  cannot make the listing store for the poll")
      return
    }
    let everyKey = Self.lookUp(in: store)
    let untitled = SourceResponse(request: request, body: Self.withoutTitlePrices(corpus))
    let pending = all.filter(\.isDescriptionPending)
    let stillPending = ((try? site.listings(from: untitled))?.listings ?? [])
      .filter(\.isDescriptionPending).count
    var read = (listings: 0, converted: 0)
    // The run's store work too: every listing recorded as seen (once before the rounds, as the
    // poll before this one did, so that the rounds are a later poll of an unchanged feed).
    _ = Self.poll(site, response, known: everyKey, recordingIn: store)
    let steps: [(String, () -> Void)] = [
      ("xmllint", { Bench.spawn(xmllint, ["--stream", "--noout", file]) }),
      ("known", { read = Self.poll(site, response, known: everyKey) }),
      ("full", { _ = try? FeedParser.parse(corpus) }),
      ("deferred", { _ = try? FeedParser.parse(corpus, text: .deferred) }),
      ("first", { _ = Self.poll(site, response, known: { _ in [] }) }),
      ("untitled", { _ = Self.poll(site, untitled, known: everyKey) }),
      ("recorded", { _ = Self.poll(site, response, known: everyKey, recordingIn: store) }),
      ("convert", { _ = ListingDescription.resolve(pending) }),
    ]
    let times = Self.rounds(9, steps)
    Self.report(
      times, listings: read.listings, converted: read.converted, pending: pending.count,
      forPrice: pending.count - stillPending)
  }

  /// The poll's figures, each as a share of xmllint's throughput in the same rounds.
  private static func report(
    _ times: [String: (Double, Double)], listings: Int, converted: Int, pending: Int,
    forPrice: Int
  ) {
    let (xmllintBest, xmllintMedian) = times["xmllint"] ?? (0, 0)
    func line(_ name: String, _ step: String) {
      let (best, median) = times[step] ?? (0, 0)
      print(
        "    \(name): \(Bench.format(best)) ms fastest, \(Bench.format(median)) ms median:"
          + " \(Int((xmllintBest / best * 100).rounded()))% of xmllint's throughput"
          + " (medians: \(Int((xmllintMedian / median * 100).rounded()))%)")
    }
    print(
      "  a poll of the corpus, 9 interleaved rounds beside xmllint --stream --noout"
        + " (\(Bench.format(xmllintBest)) ms fastest, \(Bench.format(xmllintMedian)) ms median):")
    line(
      "every id known (parse + listings + each key looked up in a SQLite listing store holding"
        + " them all; \(listings) listings, \(converted) converted; target >= 60%)", "known")
    line("reference, the full parse with conversion (FeedParser.parse)", "full")
    line("of the known poll, the parse alone (descriptions deferred)", "deferred")
    line("the first poll (nothing known: every pending description made text)", "first")
    line(
      "every id known, no title naming a price (\(forPrice) descriptions"
        + " with a digit made text for their price)", "untitled")
    line(
      "every id known and every listing recorded as seen (the run's path: parse, look up,"
        + " record in one transaction; target >= 30%)", "recorded")
    let (convert, _) = times["convert"] ?? (0, 0)
    print(
      "    the \(pending) pending descriptions made text alone: \(Bench.format(convert)) ms"
        + " fastest, \(Bench.format(convert * 1000 / Double(max(pending, 1)))) µs each")
  }

  /// Runs every step once per round, in order; per step its fastest and median times (ms).
  static func rounds(_ count: Int, _ steps: [(String, () -> Void)]) -> [String: (Double, Double)] {
    var times: [String: [Double]] = [:]
    for _ in 0..<count {
      for (name, step) in steps {
        times[name, default: []].append(Bench.fastest(runs: 1, step))
      }
    }
    return times.mapValues { ($0.min() ?? 0, $0.sorted()[$0.count / 2]) }
  }

  /// The corpus with the price taken out of every title (`&#x0024;4300` in Craigslist's).
  static func withoutTitlePrices(_ corpus: [UInt8]) -> [UInt8] {
    let text = String(decoding: corpus, as: UTF8.self)
    guard let price = try? NSRegularExpression(pattern: #"(title><!\[CDATA\[[^\]]*?) &#x0024;\d+"#)
    else { return corpus }
    let range = NSRange(text.startIndex..., in: text)
    return Array(price.stringByReplacingMatches(in: text, range: range, withTemplate: "$1").utf8)
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
    let all = (try? site.listings(from: response))?.listings ?? []
    guard let store = try? Self.store(holding: all, in: folder) else { return }
    for _ in 0..<times { _ = Self.poll(site, response, known: Self.lookUp(in: store)) }
  }

  /// A store in `folder` in which the search `corpus` has seen `listings`.
  static func store(holding listings: [Listing], in folder: URL) throws -> ListingStore {
    let path = folder.appendingPathComponent("poll-\(UUID().uuidString).db").path
    let store = try ListingStore.open(path: path, readOnly: false)
    let resolved = ListingDescription.resolve(listings)
    try store.record(SearchRecord(search: "corpus", now: Date(), seen: resolved, reached: true))
    return store
  }

  /// The keys the store knows among those asked: the run's lookup.
  static func lookUp(in store: ListingStore) -> ([ListingKey]) -> Set<ListingKey> {
    { keys in Set(((try? store.lookUp(search: "corpus", keys: keys)) ?? [:]).keys) }
  }

  /// One poll: the listings, the keys looked up, the unknown ones resolved; what it counted.
  private static func poll(
    _ site: GenericFeedSite, _ response: SourceResponse, known: ([ListingKey]) -> Set<ListingKey>,
    recordingIn store: ListingStore? = nil
  ) -> (listings: Int, converted: Int) {
    let listings = (try? site.listings(from: response))?.listings ?? []
    let seen = known(listings.map(\.key))
    let unknown = listings.filter { !seen.contains($0.key) }
    let pending = unknown.filter(\.isDescriptionPending).count
    let resolved = ListingDescription.resolve(unknown)
    if let store {
      let recorded = listings.filter { seen.contains($0.key) } + resolved
      _ = try? store.record(
        SearchRecord(search: "corpus", now: Date(), seen: recorded, reached: true))
    }
    return (listings.count, pending)
  }
}
