package import ClarissaCore

/// How messages and the report word the changes told of starred listings and text changes
/// (issue 28): `changed`, `gone`, `reposted`, and the word diff carried on
/// ``ListingAlert/change``.
package enum TextChangeWords {
  /// The most characters of a diff a message or the report carries.
  static let diffLimit = 1500

  /// The title of a one-listing message of such a change.
  static func title(_ listing: Listing) -> String {
    let kind = listing.event?.kind.words ?? "changed"
    return "\(kind): " + (listing.price == nil ? "{title}" : "{price} · {title}")
  }

  /// `title changed`, `description changed`, `title and description changed`.
  static func describe(_ listing: Listing) -> String {
    let lines = (listing.alert?.change ?? "").split(separator: "\n")
    let fields = ["title", "description"].filter { field in
      lines.contains { $0.hasPrefix("\(field): ") }
    }
    return fields.isEmpty ? "text changed" : fields.joined(separator: " and ") + " changed"
  }

  /// The word diff of a text change, or the id a starred listing's repost was posted as
  /// before: control characters dropped, at most ``diffLimit`` characters.
  package static func diff(_ listing: Listing) -> String {
    guard listing.event?.kind == .changed || listing.event?.kind == .reposted,
      let change = listing.alert?.change
    else { return "" }
    let clean = SafeText.lines(change)
    return SafeText.cut(clean, to: diffLimit) ?? clean
  }

  /// `$450 → $380 (-16%)`, or `back` / `back at $380`; `gone (last at $380)`, `was
  /// 7912345678` (reposted), `title and description changed`: what a message, the report, the
  /// feeds and the page say of a listing's change (the engine's `Change.describe`).
  package static func change(_ listing: Listing) -> String? {
    guard let event = listing.event else { return nil }
    let now = Money.format(listing)
    switch event.kind {
    case .back: return now.map { "back at \($0)" } ?? "back"
    case .gone: return now.map { "gone (last at \($0))" } ?? "gone"
    case .reposted: return listing.alert?.change ?? "posted again under a new id"
    case .changed: return describe(listing)
    default: break
    }
    guard let old = event.oldPrice, let price = listing.price, let now else { return nil }
    let percent = CheckedNumber.percent(from: old, to: price) ?? 0
    return "\(Money.format(old, listing.currency)) → \(now) (\(percent > 0 ? "+" : "")\(percent)%)"
  }
}
