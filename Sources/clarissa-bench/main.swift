internal import ClarissaCore
internal import Foundation
internal import Sites

// Benchmarks that print figures and never fail on time (the machines are shared and noisy).
// Each figure stands beside a reference measured in the same run. From the repository root:
//
//   swift build -c release && .build/release/clarissa-bench [config|feeds|filters|commute|state|poll20k|sites|serve|map|same-flat|slow-clients|photos|webpush|all]
//
// For profilers and cold-start questions: `profile-feeds`, `profile-poll`, `profile-poll20k`,
// `profile-config` (the work alone, repeated), `cold-config` (three loads in a fresh process,
// timed), `cold-tables` (the first use of the Craigslist tables in a fresh process),
// `write-config PATH` (the 1,000-search config, to profile `clarissa validate` on it),
// `write-poll20k FOLDER` (poll20k's three feeds, to profile a whole `clarissa run` on them),
// `write-map PATH` (the map's store of a million, then `map-run PATH` measures it and
// `profile-map PATH` asks its data 20 times).
//
// (`.ci/bench` does both and installs xmllint, the feed parser's reference, when missing.)

let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
  "clarissa-bench-\(getpid())")
try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let which = CommandLine.arguments.dropFirst().first ?? "all"
if !["state-run", "serve-run", "map-run", "same-flat-run"].contains(which) {
  print("clarissa-bench (medians of repeated runs; build with -c release)\n")
}
if which == "config" || which == "all" { ConfigBenchmark(folder: folder).run() }
if which == "feeds" || which == "all" { FeedBenchmark(folder: folder).run() }
if which == "filters" || which == "all" {
  FilterBenchmark().run()
  FactFilterBenchmark().run()
}
// Judging 100,000 listings with a `commute:` limit against a warm cache of travel times.
if which == "commute" || which == "all" { CommuteBenchmark(folder: folder).run() }
if which == "state" || which == "all" { StateBenchmark(folder: folder).run() }
// A poll of a changed 20,000-item feed by whole `clarissa run` processes, beside xmllint and
// rss2email 3.14 (a few minutes: it fills a 1,000,000-listing store of its own).
if which == "poll20k" || which == "all" { PollBenchmark(folder: folder).run() }
if which == "sites" || which == "all" { SiteBenchmark().run() }
if which == "serve" || which == "all" { ServeBenchmark(folder: folder).run() }
// The map's data for 10,000 listings with coordinates among a million.
if which == "map" || which == "all" { MapBenchmark(folder: folder).run() }
// Cross-site folding's look-up among the same million, with and without its index.
if which == "same-flat" || which == "all" { SameFlatBenchmark(folder: folder).run() }
// The HTTP server against 2,000 slow clients, then throughput and memory (a few minutes).
if which == "slow-clients" || which == "all" { SlowClientBenchmark(folder: folder).run() }
// A photo's hash (JPEG decoded at 1/8 or the scale that keeps 64 px) against a whole decode.
if which == "photos" || which == "all" { PhotoBenchmark().run() }
// A Web Push message's encryption and VAPID signature (OpenSSL's libcrypto).
if which == "webpush" || which == "all" { WebPushBenchmark().run() }
// For profilers: only the feed parse, repeated.
if which == "profile-feeds" { FeedBenchmark(folder: folder).profileParse(times: 20) }
if which == "profile-poll" { FeedBenchmark(folder: folder).profilePoll(times: 20) }
if which == "profile-poll20k" { PollBenchmark(folder: folder).profileRead(times: 10) }
if which == "profile-config" { ConfigBenchmark(folder: folder).profileLoad(times: 30) }
if which == "cold-tables" {
  let start = Date()
  let check = Registry.sites.site("craigslist")?.checkCity("sfbay")
  print(
    "first use of the Craigslist tables (checkCity sfbay: \(check.map { "\($0)" } ?? "-")):",
    Bench.format(Date().timeIntervalSince(start) * 1000), "ms")
}
// The run's part of `state`, in the fresh process `state` starts (its peak memory is its own).
if which == "state-run", let path = CommandLine.arguments.dropFirst(2).first {
  StateBenchmark.measureRun(path)
}
// The measured part of `serve`, likewise in a fresh process.
if which == "serve-run", let path = CommandLine.arguments.dropFirst(2).first {
  ServeBenchmark.measure(path)
}
if which == "map-run", let path = CommandLine.arguments.dropFirst(2).first {
  MapBenchmark.measure(path)
}
if which == "same-flat-run", let path = CommandLine.arguments.dropFirst(2).first {
  SameFlatBenchmark.measure(path, label: CommandLine.arguments.dropFirst(3).first ?? "")
}
if which == "profile-map", let path = CommandLine.arguments.dropFirst(2).first {
  MapBenchmark.profile(path, times: 20)
}
// The poll benchmark's feed (variant 0, then the two changed ones) written where asked, for
// profiling a whole `clarissa run` served by any loopback server.
if which == "write-poll20k", let path = CommandLine.arguments.dropFirst(2).first {
  for variant in 0...2 {
    let bytes = ClassifiedsCorpus(count: PollBenchmark.items, variant: variant).bytes()
    _ = FileManager.default.createFile(
      atPath: "\(path)/poll20k-\(variant).xml", contents: Data(bytes))
  }
}
// The map benchmark's store written where asked, to measure `map-run PATH` on it again and again.
if which == "write-map", let path = CommandLine.arguments.dropFirst(2).first {
  _ = StateBenchmark.filled(path, listing: MapBenchmark.listing)
}
if which == "cold-config" { ConfigBenchmark(folder: folder).profileLoad(times: 3) }
// The 1,000-search config written where asked, for profiling `clarissa validate` on it.
if which == "write-config", let path = CommandLine.arguments.dropFirst(2).first {
  ConfigBenchmark(folder: folder).writeThousandSearches(to: path)
}
