internal import ClarissaCore
internal import Feeds
internal import Foundation
internal import Markup
internal import Sites
internal import WebServer

/// A poll of a changed 20,000-item feed where nothing is new, as a user's `clarissa run` makes
/// it: whole processes (the release `clarissa` beside this benchmark), the feed served from
/// 127.0.0.1, one search, the store primed by a first poll. Each round serves the next of two
/// changed variants (the same ids, a few items changed, ten moved), so every poll sees bytes
/// other than the last one's and no conditional GET can answer it. Beside it in the same rounds:
/// `xmllint --stream --noout` on the same bytes, rss2email 3.14 polling the same server
/// (everything already seen; `--no-send`), and the same poll against a store that also holds
/// 1,000,000 other listings.
struct PollBenchmark {
  let folder: URL
  static let items = 20_000
  static let rounds = 7
  /// rss2email takes seconds a poll: it joins the first rounds only.
  static let rss2emailRounds = 3

  func run() {
    print(
      "\nA poll of a changed \(Self.items)-item RSS feed where nothing is new (whole processes)")
    // CLARISSA_BENCH_CLARISSA names another build's binary to measure the same way (main's).
    let other = ProcessInfo.processInfo.environment["CLARISSA_BENCH_CLARISSA"]
    guard let clarissa = other ?? Bench.siblingBinary("clarissa"),
      let xmllint = Bench.onPath("xmllint")
    else {
      print("  needs the release clarissa beside this benchmark and xmllint on PATH")
      return
    }
    let variants = (0...2).map { ClassifiedsCorpus(count: Self.items, variant: $0).bytes() }
    let files = variants.indices.map { folder.appendingPathComponent("poll20k-\($0).xml").path }
    for (file, bytes) in zip(files, variants) {
      _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
    }
    guard let server = FeedServer(body: variants[0]) else {
      print("  cannot listen on 127.0.0.1")
      return
    }
    defer { server.stop() }
    server.serve(variants[0], file: files[0])
    print("  clarissa: \(clarissa)")
    print(
      "  the feed: \(variants[1].count / 1000) kB, \(Self.items) items (RSS 2.0, HTML"
        + " descriptions), served from \(server.url)")
    let plain = folder.appendingPathComponent("poll20k.db").path
    let million = folder.appendingPathComponent("poll20k-million.db").path
    guard let config = writeConfig(url: server.url), fillMillion(million) else { return }
    let rss2email = RSS2Email(folder: folder, url: server.url)
    let commands: [(name: String, command: [String])] =
      [
        ("xmllint", [xmllint, "--stream", "--noout"]),
        ("run", Self.clarissa(clarissa, config, plain)),
        ("million", Self.clarissa(clarissa, config, million)),
        ("dry", Self.clarissa(clarissa, config, plain) + ["--dry-run"]),
        ("version", [clarissa, "--version"]),
      ] + (rss2email.map { [("rss2email", $0.command)] } ?? [])
    // The first poll primes each store and rss2email's memory.
    for (name, command) in commands where name == "run" || name == "million" || name == "rss2email"
    {
      _ = Bench.spawnMeasured(command[0], Array(command.dropFirst()))
    }
    var measured: [String: [Bench.Child]] = [:]
    var peaks: [String: Int] = [:]
    // The rounds, then one more under GNU time for each program's peak memory.
    for round in 0...Self.rounds {
      server.serve(variants[1 + round % 2], file: files[1 + round % 2])
      for (name, command) in commands {
        // xmllint reads the file that holds the bytes served; rss2email only joins a few rounds.
        let arguments = Array(command.dropFirst()) + (name == "xmllint" ? [server.file] : [])
        if name == "rss2email", round >= Self.rss2emailRounds, round < Self.rounds { continue }
        if round == Self.rounds {
          peaks[name] = Bench.peakKB(command[0], arguments)
        } else if let child = Bench.spawnMeasured(command[0], arguments) {
          measured[name, default: []].append(child)
        }
      }
    }
    Self.report(measured, peaks: peaks)
  }

  /// `clarissa run` of the benchmark's one search, every search forced due, no politeness delay.
  private static func clarissa(_ binary: String, _ config: String, _ store: String) -> [String] {
    [
      binary, "run", "--config", config, "--state", store, "--force", "--politeness-delay", "0",
      "--quiet",
    ]
  }

  private func writeConfig(url: String) -> String? {
    let path = folder.appendingPathComponent("poll20k.yaml").path
    let text = """
      version: 1
      http:
        max_response_size: 16MiB
      limits:
        items_per_source: 20000
      searches:
        - name: poll20k
          site: feed
          feeds: [\(url)]

      """
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
      print("  cannot write the config")
      return nil
    }
    return path
  }

  /// The store that also holds 1,000,000 listings of another search (as `state` fills it).
  private func fillMillion(_ path: String) -> Bool {
    let start = Date()
    do {
      try StateBenchmark.fill(path)
    } catch {
      print("  cannot fill the 1,000,000-listing store: \(error)")
      return false
    }
    print(
      "  a second store filled with 1,000,000 other listings in"
        + " \(Bench.format(Date().timeIntervalSince(start))) s (one-off)")
    return true
  }
}

extension PollBenchmark {
  /// The poll's reading alone, in this process and repeated (for `perf record`): the changed
  /// corpus parsed (descriptions deferred), then read into listings by the generic feed adapter
  /// as a run reads it; the fastest time of each printed.
  func profileRead(times: Int) {
    let corpus = ClassifiedsCorpus(count: Self.items, variant: 1).bytes()
    let request = RequestSpec(url: "http://127.0.0.1/feed.xml", mode: "feed")
    let response = SourceResponse(request: request, body: corpus)
    let site = GenericFeedSite()
    var limits = Limits()
    limits.itemsPerSource = Self.items
    // The floor of any reading of the whole document: libxml2's SAX2 parse and the events it
    // gives, with nothing done with them and no text made.
    let events = Bench.fastest(runs: times) {
      _ = try? XMLEventParser.parse(bytes: corpus, skippingText: { true }) { _ in }
    }
    let parse = Bench.fastest(runs: times) { _ = try? FeedParser.parse(corpus, text: .deferred) }
    let read = Bench.fastest(runs: times) {
      let listings = (try? site.listings(from: response))?.listings ?? []
      _ = ListingCheck.answer(listings, limits: limits)
    }
    print(
      "the \(Self.items)-item corpus (\(corpus.count / 1000) kB), fastest of \(times): its events"
        + " alone \(Bench.format(events)) ms; parse \(Bench.format(parse)) ms; parse, listings and"
        + " their checks \(Bench.format(read)) ms")
  }
}
