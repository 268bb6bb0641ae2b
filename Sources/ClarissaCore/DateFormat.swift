public import Foundation
internal import Synchronization

/// A date format made once and shared between threads: one Foundation formatter per format and
/// time zone.
///
/// Making a `DateFormatter` or an `ISO8601DateFormatter` costs far more than using one (ICU
/// opens its data), so each format is made once: a fixed one as a `static let` beside its use
/// (or `internet` here), one that depends on a time zone or on a site's definition from a
/// bounded cache. A Foundation formatter is not safe to use from two threads at once
/// (`ISO8601DateFormatter` is not `Sendable`), so every use holds the formatter's own lock; a
/// use takes microseconds.
public struct DateFormat: Sendable {
  private let shared: SharedFormatter

  private init(_ shared: SharedFormatter) { self.shared = shared }

  /// `2026-05-03T19:00:00Z`: RFC 3339 in UTC, whole seconds (`ISO8601DateFormatter`'s default).
  public static let internet = iso8601()

  /// `2026-05-03T19:00:00.250Z`: RFC 3339 in UTC with milliseconds.
  public static let internetFractional = iso8601([.withInternetDateTime, .withFractionalSeconds])

  /// ISO 8601 with `options`, in `zone` (`+02:00` written for a zone east of UTC).
  public static func iso8601(
    _ options: ISO8601DateFormatter.Options = [.withInternetDateTime], zone: TimeZone = .gmt
  ) -> DateFormat {
    cache.format("iso\u{0}\(options.rawValue)\u{0}\(zone.identifier)") {
      let formatter = ISO8601DateFormatter()
      formatter.formatOptions = options
      formatter.timeZone = zone
      return .iso(formatter)
    }
  }

  /// A fixed pattern (`yyyy-MM-dd HH:mm`, ICU's symbols) read and written with the POSIX locale
  /// in `zone`. `strict` refuses what a lenient reading would take (ICU's reads `31.02.` as 3
  /// March); otherwise Foundation's default holds.
  public static func pattern(
    _ pattern: String, zone: TimeZone, strict: Bool = false, locale: String = "en_US_POSIX"
  ) -> DateFormat {
    cache.format("pattern\u{0}\(strict)\u{0}\(zone.identifier)\u{0}\(locale)\u{0}\(pattern)") {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: locale)
      formatter.timeZone = zone
      if strict { formatter.isLenient = false }
      formatter.dateFormat = pattern
      return .pattern(formatter)
    }
  }

  /// `date` written in this format.
  public func string(from date: Date) -> String { shared.string(from: date) }

  /// `text` read in this format, or nil when it is not one.
  public func date(from text: String) -> Date? { shared.date(from: text) }

  private static let cache = FormatCache()

  /// The formats made so far, by what makes them. Fixed formats are a handful; the patterns of
  /// site definitions are a few per site; past `limit` a caller is making formats up, and the
  /// cache starts again rather than grow.
  private final class FormatCache: Sendable {
    /// The formats by key (each formatter has a lock of its own).
    private let formats = Mutex<[String: SharedFormatter]>([:])
    private let limit = 512

    func format(_ key: String, make: () -> SharedFormatter.Made) -> DateFormat {
      formats.withLock { formats in
        if let known = formats[key] { return DateFormat(known) }
        if formats.count >= limit { formats.removeAll() }
        let made = SharedFormatter(make())
        formats[key] = made
        return DateFormat(made)
      }
    }
  }
}

/// One Foundation formatter, used under its lock.
private final class SharedFormatter: Sendable {
  enum Made {
    case iso(ISO8601DateFormatter)
    case pattern(DateFormatter)
  }

  /// The formatter, used under the lock.
  private let made: Mutex<Made>

  init(_ made: sending Made) { self.made = Mutex(made) }

  func string(from date: Date) -> String {
    made.withLock { made in
      switch made {
      case .iso(let formatter): formatter.string(from: date)
      case .pattern(let formatter): formatter.string(from: date)
      }
    }
  }

  func date(from text: String) -> Date? {
    made.withLock { made in
      switch made {
      case .iso(let formatter): formatter.date(from: text)
      case .pattern(let formatter): formatter.date(from: text)
      }
    }
  }
}
