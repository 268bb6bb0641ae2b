public import Foundation

/// Prices as people read them.
public enum Money {
  /// `$3,499`, `£1,250`, `1250 CHF`.
  public static func format(_ amount: Double, _ currency: String?) -> String {
    wrapped(number(amount), currency)
  }

  /// A price given as a range: `€1,250–1,500`, `1,250–1,500 CHF`; one price when `high` is
  /// nil or not above `low`.
  public static func format(_ low: Double, upTo high: Double?, _ currency: String?) -> String {
    guard let high, high > low else { return format(low, currency) }
    return wrapped(number(low) + "–" + number(high), currency)
  }

  /// The listing's price as people read it (a range when the site gave one); nil without one.
  public static func format(_ listing: Listing) -> String? {
    listing.price.map { format($0, upTo: listing.priceHigh, listing.currency) }
  }

  private static func number(_ amount: Double) -> String {
    let whole = amount == amount.rounded()
    let number: String
    if whole, abs(amount) < 1e15 {
      // Most prices: grouped here (a NumberFormatter is made per call, some 30 µs: the map
      // words 10,000 prices).
      number = grouped(Int64(amount))
    } else {
      let formatter = NumberFormatter()
      formatter.numberStyle = .decimal
      formatter.locale = Locale(identifier: "en_US")
      formatter.maximumFractionDigits = whole ? 0 : 2
      formatter.minimumFractionDigits = whole ? 0 : 2
      number = formatter.string(from: NSNumber(value: amount)) ?? String(amount)
    }
    return number
  }

  private static func wrapped(_ number: String, _ currency: String?) -> String {
    switch currency {
    case "USD"?, "CAD"?, "AUD"?, "NZD"?: return "$" + number
    case "GBP"?: return "£" + number
    case "EUR"?: return "€" + number
    case let code?: return "\(number) \(code)"
    case nil: return number
    }
  }

  /// `1234567` as en_US writes it: `1,234,567` (`-1,234` below zero).
  static func grouped(_ value: Int64) -> String {
    let digits = Array(String(value.magnitude))
    var out = value < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return out
  }
}

/// "5 min ago", "3 h ago", "2 d ago".
public enum Age {
  /// How long before `now` `date` was.
  public static func describe(from date: Date, to now: Date) -> String {
    let seconds = CheckedNumber.clampedInteger(now.timeIntervalSince(date).rounded(.towardZero))
    switch seconds {
    case ..<0: return "just now"
    case ..<3600: return "\(max(1, seconds / 60)) min ago"
    case ..<86_400: return "\(seconds / 3600) h ago"
    default: return "\(seconds / 86_400) d ago"
    }
  }
}
