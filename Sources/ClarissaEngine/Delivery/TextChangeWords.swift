import ClarissaCore

/// How messages and the report word the changes told of starred listings and text changes
/// (issue 28): `changed`, `gone`, `reposted`, and the word diff carried on
/// ``ListingAlert/change``.
enum TextChangeWords {
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
  static func diff(_ listing: Listing) -> String {
    guard listing.event?.kind == .changed || listing.event?.kind == .reposted,
      let change = listing.alert?.change
    else { return "" }
    let clean = SafeText.lines(change)
    return SafeText.cut(clean, to: diffLimit) ?? clean
  }
}
