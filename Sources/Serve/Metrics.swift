package import ClarissaCore
package import Foundation
internal import ListingStore
internal import Synchronization

/// What `/metrics` counts, in the Prometheus text format (version 0.0.4). Counters grow with
/// every round this process ran (`clarissa watch --http`); a `serve` alone runs none and shows
/// them at zero. Gauges read from the store at each scrape: cool-downs and unviewed listings.
package final class Metrics: Sendable {
  /// Everything counted so far.
  private let counters = Mutex(MetricsCounters())

  /// Nothing counted yet.
  package init() {}

  /// Adds one round: its requests, listings and deliveries, and how long it took.
  package func record(_ result: RunResult, seconds: Double, finished: Date) {
    counters.withLock { $0.record(result, seconds: seconds, finished: finished) }
  }

  /// Counts a page or API answer by status.
  func served(_ status: Int) {
    counters.withLock { $0.pages[status, default: 0] += 1 }
  }

  /// When the last round finished, if this process ran one.
  package var lastRoundFinished: Date? { counters.withLock { $0.lastRound } }

  /// The exposition: the counters, then the store's gauges.
  func text(cooldowns: [String: Cooldown], unviewed: [String: Int], now: Date) -> String {
    var out = MetricsText()
    counters.withLock { counters in
      counters.writeRuns(to: &out)
      counters.writeHosts(to: &out)
      counters.writeListings(to: &out)
    }
    Self.writeStore(to: &out, cooldowns: cooldowns, unviewed: unviewed, now: now)
    return out.text
  }

  /// The store's gauges: the hosts cooling down and until when, the unviewed per search.
  private static func writeStore(
    to out: inout MetricsText, cooldowns: [String: Cooldown], unviewed: [String: Int], now: Date
  ) {
    let cooling = cooldowns.filter { $0.value.until > now }
    out.family("clarissa_cooldowns", "gauge", "Hosts cooling down now (not asked until the time).")
    out.sample("clarissa_cooldowns", [], Double(cooling.count))
    out.family(
      "clarissa_cooldown_until_timestamp_seconds", "gauge", "When each cooling host is asked again."
    )
    for (host, cooldown) in cooling.byKey {
      out.sample(
        "clarissa_cooldown_until_timestamp_seconds", [("host", host)],
        cooldown.until.timeIntervalSince1970)
    }
    out.family("clarissa_unviewed_listings", "gauge", "Listings nobody has viewed, per search.")
    for (search, count) in unviewed.byKey {
      out.sample("clarissa_unviewed_listings", [("search", search)], Double(count))
    }
  }
}

/// What ``Metrics`` counts, under its lock.
private struct MetricsCounters {
  var runs = 0
  var lastRound: Date?
  var lastRoundSeconds: Double?
  var durations = Histogram(bounds: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300])
  var hosts: [String: RunResult.HostTally] = [:]
  var channels: [String: RunResult.ChannelTally] = [:]
  var listings: [String: [String: Int]] = [:]  // event -> search -> count
  var pages: [Int: Int] = [:]  // status -> served

  /// Adds one round.
  mutating func record(_ result: RunResult, seconds: Double, finished: Date) {
    runs += 1
    lastRound = finished
    lastRoundSeconds = seconds
    durations.observe(seconds)
    for (host, tally) in result.hosts { hosts[host, default: RunResult.HostTally()].add(tally) }
    for (channel, tally) in result.channels {
      channels[channel, default: RunResult.ChannelTally()].add(tally)
    }
    for search in result.searches {
      let counts = [
        "new": search.new.count, "folded": search.folded.count,
        "changed": search.changed.count, "primed": search.primed,
      ]
      for (event, count) in counts {
        listings[event, default: [:]][search.name, default: 0] += count
      }
    }
  }

  /// The rounds: how many, how long, when the last finished. Called holding the lock.
  func writeRuns(to out: inout MetricsText) {
    out.family("clarissa_runs_total", "counter", "Rounds this process ran.")
    out.sample("clarissa_runs_total", [], Double(runs))
    out.family(
      "clarissa_round_duration_seconds", "histogram",
      "How long each round took, fetch to delivery.")
    durations.write(to: &out, name: "clarissa_round_duration_seconds")
    out.family(
      "clarissa_last_round_timestamp_seconds", "gauge",
      "When the last round of this process finished (absent before the first).")
    if let lastRound {
      out.sample("clarissa_last_round_timestamp_seconds", [], lastRound.timeIntervalSince1970)
    }
  }

  /// The requests per host. Called holding the lock.
  func writeHosts(to out: inout MetricsText) {
    let hostFamilies: [(String, String, KeyPath<RunResult.HostTally, Int>)] = [
      ("clarissa_requests_total", "Requests sent, per host (retries count).", \.requests),
      ("clarissa_request_failures_total", "Requests with no usable answer, per host.", \.failures),
      ("clarissa_requests_not_modified_total", "Requests answered 304, per host.", \.notModified),
      (
        "clarissa_requests_skipped_total", "Requests not sent: the host was cooling down.",
        \.skipped
      ),
    ]
    for (name, help, path) in hostFamilies {
      out.family(name, "counter", help)
      for (host, tally) in hosts.byKey {
        out.sample(name, [("host", host)], Double(tally[keyPath: path]))
      }
    }
  }

  /// The listings per search and event, the channels' deliveries, the answers served. Called
  /// holding the lock.
  func writeListings(to out: inout MetricsText) {
    out.family(
      "clarissa_listings_total", "counter",
      "Listings per search and event: new (announced), folded (reposts), changed (price, back), "
        + "primed.")
    for (event, searches) in listings.byKey {
      for (search, count) in searches.byKey {
        out.sample(
          "clarissa_listings_total", [("search", search), ("event", event)], Double(count))
      }
    }
    out.family("clarissa_deliveries_total", "counter", "Listings a channel accepted.")
    for (channel, tally) in channels.byKey {
      out.sample("clarissa_deliveries_total", [("channel", channel)], Double(tally.delivered))
    }
    out.family(
      "clarissa_delivery_failures_total", "counter", "Listings a channel refused (retried later).")
    for (channel, tally) in channels.byKey {
      out.sample("clarissa_delivery_failures_total", [("channel", channel)], Double(tally.failed))
    }
    out.family(
      "clarissa_http_responses_total", "counter", "Pages and API answers served, by status.")
    for (status, served) in pages.byKey {
      out.sample("clarissa_http_responses_total", [("code", String(status))], Double(served))
    }
  }

}

extension Dictionary where Key: Comparable {
  /// The pairs in the order of their keys: the exposition lists samples in a stable order.
  fileprivate var byKey: [(key: Key, value: Value)] { sorted { $0.key < $1.key } }
}

/// Cumulative buckets, a sum and a count.
private struct Histogram {
  let bounds: [Double]
  var counts: [Int]
  var sum = 0.0
  var count = 0

  init(bounds: [Double]) {
    self.bounds = bounds
    counts = Array(repeating: 0, count: bounds.count)
  }

  mutating func observe(_ value: Double) {
    for (index, bound) in bounds.enumerated() where value <= bound { counts[index] += 1 }
    sum += value
    count += 1
  }

  func write(to out: inout MetricsText, name: String) {
    for (index, bound) in bounds.enumerated() {
      out.sample(name + "_bucket", [("le", MetricsText.number(bound))], Double(counts[index]))
    }
    out.sample(name + "_bucket", [("le", "+Inf")], Double(count))
    out.sample(name + "_sum", [], sum)
    out.sample(name + "_count", [], Double(count))
  }
}

/// The text format's lines, with label values escaped as it asks (`\\`, `\"`, `\n`).
struct MetricsText {
  var text = ""

  mutating func family(_ name: String, _ type: String, _ help: String) {
    text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
  }

  mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
    text += name
    if !labels.isEmpty {
      text += "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
    }
    text += " " + Self.number(value) + "\n"
  }

  static func escape(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
