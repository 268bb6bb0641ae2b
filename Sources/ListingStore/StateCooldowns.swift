public import ClarissaCore
public import Foundation

/// A host that refused or rate-limited clarissa, and until when clarissa leaves it alone.
public struct Cooldown: Codable, Sendable, Equatable {
  /// No request to the host before this time.
  public var until: Date
  /// What the host did, in a few words ("answered 403 Forbidden").
  public var reason: String
  /// When the host first refused (kept when a retry is refused again); nil in older states.
  public var since: Date?
  /// The HTTP status that set it (403, 429, 503); nil for a block page in a 200 answer.
  public var status: Int?
  /// The server's own short answer: one line of its body, tags dropped.
  public var answer: String?
  /// The request URLs asked of the host when it was set. A URL outside them (the user fixed
  /// one) earns the host one request before the cool-down ends; nil in older states.
  public var urls: [String]?

  /// Creates a cool-down.
  public init(
    until: Date, reason: String, since: Date? = nil, status: Int? = nil, answer: String? = nil,
    urls: [String]? = nil
  ) {
    self.until = until
    self.reason = reason
    self.since = since
    self.status = status
    self.answer = answer
    self.urls = urls
  }

  /// The longest any host is left alone: a server asking for more (`Retry-After: 1e18`, a
  /// date in the year 9999) gets this, with a warning naming the host and the header.
  public static let ceiling: Double = 7 * 86_400

  /// The cool-down ending no later than the ceiling after it was set (`since`, else `now`): one
  /// stored by an older version, or imported, may reach further.
  public func bounded(from now: Date) -> Cooldown {
    var bounded = self
    bounded.until = min(until, (since ?? now).addingTimeInterval(Self.ceiling))
    return bounded
  }

  /// A 429 or 503 with a long wait: the server asked for time, and a new URL does not change
  /// that; only a refusal (403, a block page) is asked again when the URL changes.
  public var isRateLimit: Bool { status == 429 || status == 503 }

  /// Why, as the list and the report say it: the reason and the server's own words.
  public var why: String {
    guard let answer, !answer.isEmpty else { return reason }
    return "\(reason): \u{201C}\(answer)\u{201D}"
  }

  /// A bot wall's page (`SiteWall.recognised`) answered at `now` with `status`: the host is
  /// left alone for `seconds`. The wall is named in the reason, which the state keeps.
  public static func wall(_ wall: SiteWall, status: Int, at now: Date, for seconds: Double)
    -> Cooldown
  {
    Cooldown(
      until: now.addingTimeInterval(seconds),
      reason: "blocked by \(wall.vendor): its challenge page, HTTP \(status)", since: now,
      status: (200..<300).contains(status) ? nil : status)
  }

  /// The bot wall that set it, read from its reason; nil for any other refusal.
  public var wall: SiteWall? {
    SiteWall.allCases.first { $0 != .none && reason.hasPrefix("blocked by \($0.vendor): ") }
  }
}

extension Cooldown {
  /// Of `cooldowns`, those still running at `now`, by host.
  public static func active(_ cooldowns: [String: Cooldown], at now: Date) -> [(
    host: String, cooldown: Cooldown
  )] {
    cooldowns.filter { $0.value.until > now }.sorted { $0.key < $1.key }.map {
      (host: $0.key, cooldown: $0.value)
    }
  }
}
