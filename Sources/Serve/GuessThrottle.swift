internal import ClarissaCore
internal import Foundation
internal import Synchronization

/// Slows whoever guesses the access token or forges `/act` tokens: after ``allowed`` wrong
/// tokens from one client address within ``window`` seconds, every further wrong token from it
/// is answered 429 with `Retry-After` until the window ends. The callers let the right token in
/// whatever its address sent before: behind a tunnel every phone has the tunnel's address, and
/// a stranger's forged tokens must not lock them out (a token of 128 bits is out of reach of
/// guessing at any rate the server answers). An IPv6 address counts by its /64, which one
/// machine may hold whole. The table holds at most
/// ``capacity`` addresses; when full, the entries of ended windows go first, then the oldest.
final class GuessThrottle: Sendable {
  /// Wrong tokens allowed in a window.
  let allowed: Int
  /// Seconds of a window, from an address's first wrong token.
  let window: Double
  /// Addresses remembered at most.
  let capacity: Int
  private let now: @Sendable () -> Double
  /// Per address: when its window started, and its wrong tokens since.
  private let table = Mutex<[String: (start: Double, failures: Int)]>([:])

  init(
    allowed: Int = 5, window: Double = 60, capacity: Int = 10_000,
    now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
  ) {
    self.allowed = allowed
    self.window = window
    self.capacity = capacity
    self.now = now
  }

  /// Seconds `client` must wait before a token of its is looked at; nil: none.
  func wait(_ client: String?) -> Int? {
    let key = Self.key(client)
    let time = now()
    return table.withLock { table in
      guard let entry = table[key], time - entry.start < window, entry.failures >= allowed
      else { return nil }
      return max(1, Int((entry.start + window - time).rounded(.up)))
    }
  }

  /// Counts a wrong token from `client`.
  func failed(_ client: String?) {
    let key = Self.key(client)
    let time = now()
    table.withLock { table in
      if var entry = table[key], time - entry.start < window {
        entry.failures += 1
        table[key] = entry
        return
      }
      if table.count >= capacity {
        table = table.filter { time - $0.value.start < window }
        if table.count >= capacity,
          let oldest = table.min(by: { $0.value.start < $1.value.start })?.key
        {
          table[oldest] = nil
        }
      }
      table[key] = (time, 1)
    }
  }

  /// Addresses remembered now.
  var count: Int { table.withLock { $0.count } }

  /// An IPv4 address as it is; an IPv6 one by its first four groups (its /64).
  static func key(_ client: String?) -> String {
    guard let client, client.contains(":") else { return client ?? "" }
    if client.hasPrefix("::ffff:"), client.contains(".") { return String(client.dropFirst(7)) }
    var groups = client.components(separatedBy: "::")
    // Expand `a:b::c` so that the first four groups are the written ones or zeros.
    let head = groups.removeFirst().split(separator: ":", omittingEmptySubsequences: false)
    let tail = groups.first.map { $0.split(separator: ":", omittingEmptySubsequences: false) } ?? []
    let full =
      groups.isEmpty
      ? head.map(String.init)
      : head.map(String.init) + Array(repeating: "0", count: max(0, 8 - head.count - tail.count))
        + tail.map(String.init)
    return full.prefix(4).map { $0.isEmpty ? "0" : $0.lowercased() }.joined(separator: ":")
      + "::/64"
  }
}
