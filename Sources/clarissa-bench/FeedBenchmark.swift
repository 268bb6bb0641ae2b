internal import ClarissaCore
internal import Feeds
internal import Foundation
internal import Markup
internal import Sites

/// Feed parsing beside `xmllint --stream` on the same bytes, and the sapi decoder beside plain
/// JSONSerialization of the same response.
struct FeedBenchmark {
  let folder: URL
  let fixtures = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    .appendingPathComponent("Fixtures")

  func run() {
    print("\nFeeds and Craigslist")
    guard
      let sample = FileManager.default.contents(
        atPath: fixtures.appendingPathComponent("craigslist/sfbay-apa-1.xml").path)
    else {
      print("  (run from the repository root: Fixtures/ not found)")
      return
    }
    let corpus = Self.corpus(from: Array(sample), targetBytes: 5_000_000)
    let url = folder.appendingPathComponent("corpus.xml")
    _ = FileManager.default.createFile(atPath: url.path, contents: Data(corpus))
    feeds(corpus, file: url.path)
    if let xmllint = Bench.onPath("xmllint") { poll(corpus, file: url.path, xmllint: xmllint) }
    hostile(corpus)
    sapi()
  }

  /// Hostile documents are refused before libxml2 expands anything: compare with reading a
  /// benign document of the same size.
  private func hostile(_ corpus: [UInt8]) {
    let blowup = Array(
      ("<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY a \""
        + String(repeating: "x", count: 100_000)
        + "\">]><rss version=\"2.0\"><channel><item><title>"
        + String(repeating: "&a;", count: 20_000)
        + "</title></item></channel></rss>").utf8)
    let benign = Array(corpus.prefix(blowup.count))
    Bench.report(
      "quadratic entity blow-up (\(blowup.count / 1024) KiB, 2 GB if expanded) refused",
      Bench.measure { (try? FeedParser.parse(blowup)) as Any },
      reference: (
        "the first \(blowup.count / 1024) KiB of the corpus (cut off, recovered)",
        Bench.measure { (try? FeedParser.parse(benign)) as Any }
      ))
    let huge = [UInt8](repeating: 0x20, count: 17 << 20)
    Bench.report(
      "17 MiB body refused by the 16 MiB cap",
      Bench.measure { (try? FeedParser.parse(huge)) as Any },
      reference: (
        "the 5 MB corpus parsed", Bench.measure(runs: 3) { (try? FeedParser.parse(corpus)) as Any }
      ))
  }

  /// Parses the corpus `times` times and nothing else, for `perf record`.
  func profileParse(times: Int) {
    guard
      let sample = FileManager.default.contents(
        atPath: fixtures.appendingPathComponent("craigslist/sfbay-apa-1.xml").path)
    else { return }
    let corpus = Self.corpus(from: Array(sample), targetBytes: 5_000_000)
    for _ in 0..<times { _ = try? FeedParser.parse(corpus) }
  }

  private func feeds(_ corpus: [UInt8], file: String) {
    var items = 0
    let parse = Bench.measure(runs: 5) {
      items = (try? FeedParser.parse(corpus))?.items.count ?? -1
    }
    let stream = Bench.measure(runs: 5) { () -> Int in
      var count = 0
      _ = try? XMLEventParser.parse(bytes: corpus) { _ in count += 1 }
      return count
    }
    let mb = Double(corpus.count) / 1e6
    print(
      "  corpus: \(String(format: "%.1f", mb)) MB RSS 1.0, \(items) items (Craigslist items, HTML descriptions with &nbsp;)"
    )
    print(
      "  FeedParser.parse (items, dates, HTML to text): \(Bench.format(parse)) ms, \(Bench.format(Bench.throughput(corpus.count, parse))) MB/s"
    )
    print(
      "  XMLEventParser events only: \(Bench.format(stream)) ms, \(Bench.format(Bench.throughput(corpus.count, stream))) MB/s"
    )
    guard let xmllint = Bench.onPath("xmllint") else {
      print("  (xmllint not installed: apt-get install libxml2-utils for the reference)")
      return
    }
    let reference = Bench.measure(runs: 5) { Bench.spawn(xmllint, ["--stream", "--noout", file]) }
    print(
      "  xmllint --stream --noout (whole process): \(Bench.format(reference)) ms, \(Bench.format(Bench.throughput(corpus.count, reference))) MB/s"
    )
    print(
      "  full parse (every description made text) at \(Int((reference / parse * 100).rounded()))% of xmllint's throughput"
    )
    let bestParse = Bench.fastest(runs: 7) { _ = try? FeedParser.parse(corpus) }
    let bestReference = Bench.fastest(runs: 7) {
      Bench.spawn(xmllint, ["--stream", "--noout", file])
    }
    print(
      "  fastest of 7 (less sensitive to a busy machine): \(Bench.format(bestParse)) ms beside \(Bench.format(bestReference)) ms, \(Int((bestReference / bestParse * 100).rounded()))%"
    )
  }

  private func sapi() {
    guard
      let data = FileManager.default.contents(
        atPath: fixtures.appendingPathComponent("craigslist/sfbay-sss-sapi-1.json").path)
    else { return }
    let body = Array(data)
    let site = CraigslistSite()
    let request = site.request(forSavedResponseIn: "api", city: "sfbay")
    var rows = 0
    let decode = Bench.measure(runs: 21) {
      rows =
        (try? site.listings(from: SourceResponse(request: request, body: body)))?.listings.count
        ?? -1
    }
    let json = Bench.measure(runs: 21) { (try? JSONSerialization.jsonObject(with: data)) as Any }
    Bench.report(
      "sapi decoder, \(rows) rows (\(body.count / 1024) KiB)", decode,
      reference: ("JSONSerialization of the same bytes", json))
    print("    \(Int(Double(rows) / (decode / 1000))) rows/s")
  }

  /// Repeats the sample's items (with fresh ids) until the document reaches `targetBytes`.
  static func corpus(from sample: [UInt8], targetBytes: Int) -> [UInt8] {
    let text = String(decoding: sample, as: UTF8.self)
    guard let firstItem = text.range(of: "<item "),
      let end = text.range(of: "</rdf:RDF>", options: .backwards)
    else { return sample }
    let head = String(text[..<firstItem.lowerBound])
    let items = String(text[firstItem.lowerBound..<end.lowerBound])
    var body = head
    var round = 0
    while body.utf8.count < targetBytes {
      body += items.replacingOccurrences(of: ".html", with: "-\(round).html")
      round += 1
    }
    return Array((body + "</rdf:RDF>\n").utf8)
  }
}
