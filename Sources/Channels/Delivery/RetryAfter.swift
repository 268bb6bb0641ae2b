internal import ClarissaCore
internal import Curl
package import Foundation
internal import ListingStore
internal import Presentation

/// A server's `Retry-After` (RFC 9110 §10.2.3: a number of seconds, or an HTTP date), read
/// without trusting it: `inf`, `1e23`, `-1` or a date in the year 9999 must neither crash a run
/// nor keep a host away for longer than ``Cooldown/ceiling``.
package struct RetryAfter: Equatable {
  /// Seconds to wait, at most the ceiling; nil when the header is absent or unusable (the
  /// caller backs off as if none was given).
  package var seconds: Double?
  /// What was wrong with the header, for the report: it names the header's value.
  package var problem: String?

  /// Reads `value`. A date is measured from the answer's own `Date` (the server's clock), else
  /// from the run's clock: never from this machine's clock, which a run under `--now` (and every
  /// cool-down) does not use.
  package init(_ value: String?, date: String? = nil, now: Date) {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
      self.init(seconds: nil, problem: nil)
      return
    }
    let shown = Excerpt.oneLine(value.utf8, limit: 40)
    switch CheckedNumber.decimal(value) {
    case .value(let seconds):
      self.init(seconds, header: shown)
    case .tooLarge:
      self.init(.infinity, header: shown)
    case .malformed:
      guard let until = Self.httpDate(value) else {
        self.init(
          seconds: nil,
          problem:
            "Retry-After '\(shown)' is neither a number of seconds nor an HTTP date: ignored")
        return
      }
      let from = date.flatMap(Self.httpDate) ?? now
      self.init(max(0, until.timeIntervalSince(from)), header: shown)
    }
  }

  package init(seconds: Double?, problem: String?) {
    self.seconds = seconds
    self.problem = problem
  }

  private init(_ seconds: Double, header: String) {
    guard seconds > Cooldown.ceiling else {
      self.init(seconds: seconds, problem: nil)
      return
    }
    let ceiling = ReportClock.span(Cooldown.ceiling)
    self.init(
      seconds: Cooldown.ceiling,
      problem: "Retry-After '\(header)' asks for more than clarissa's ceiling of \(ceiling): "
        + "waiting \(ceiling)")
  }

  /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
  package static func httpDate(_ text: String) -> Date? {
    httpDateFormat.date(from: text.trimmingCharacters(in: .whitespaces))
  }

  private static let httpDateFormat = DateFormat.pattern(
    "EEE, dd MMM yyyy HH:mm:ss zzz", zone: .gmt)
}
