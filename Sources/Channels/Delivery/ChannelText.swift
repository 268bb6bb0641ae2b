internal import ClarissaCore
internal import Foundation

/// Text made fit for a service's message: cut to its limit as the service counts, and escaped
/// for its markup. Listing text has been through ``ListingCheck`` (no control characters).
enum ChannelText {
  /// `text` cut to at most `limit`, each character counting `size(character)` (UTF-16 code
  /// units for Telegram, escaped characters for Pushover), on a character boundary; a cut is
  /// marked with `…` (which counts 1).
  static func cut(
    _ text: String, to limit: Int, size: (Character) -> Int = { $0.utf16.count }
  ) -> String {
    guard text.reduce(0, { $0 + size($1) }) > limit else { return text }
    guard limit > 0 else { return "" }
    var out = ""
    var used = 1
    for character in text {
      let each = size(character)
      if used + each > limit { break }
      out.append(character)
      used += each
    }
    return out + "…"
  }

  /// `text` with HTML's `&`, `<`, `>` and `"` escaped.
  static func escapeHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// How many characters `character` takes once escaped for HTML.
  static func escapedSize(_ character: Character) -> Int {
    switch character {
    case "&": 5
    case "<", ">": 4
    case "\"": 6
    default: 1
    }
  }

  /// Whether `address` is a web address a service may open or fetch (and not too long for it):
  /// absolute `http://` or `https://` with a host, no white space, control or format character
  /// (a bidirectional override) and no `\` (which browsers read as `/`, moving the host).
  /// `javascript:`, `data:`, `file:` and relative addresses are not web addresses. What a
  /// service's markup makes of `<`, `>` or `|` is each channel's escaping.
  static func isWeb(_ address: String, limit: Int = 2048) -> Bool {
    guard address.utf8.count <= limit else { return false }
    let lower = address.prefix(8).lowercased()
    let scheme = lower.hasPrefix("https://") ? 8 : lower.hasPrefix("http://") ? 7 : 0
    guard scheme > 0, let host = address.unicodeScalars.dropFirst(scheme).first,
      !"/?#@:".unicodeScalars.contains(host)
    else { return false }
    return !address.unicodeScalars.contains { scalar in
      switch scalar.properties.generalCategory {
      case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
        .surrogate, .privateUse, .unassigned:
        true
      default: scalar == "\\"
      }
    }
  }

  /// `listing` as a channel may show it (``ListingCheck/shown(_:)``), with its link emptied
  /// and its photos dropped unless they are web addresses (``isWeb(_:limit:)``): every channel
  /// gets its listings through here (``sendMessages(_:search:channel:_:_:)``), so no message,
  /// header, button or attachment carries a `javascript:`, `data:` or relative address. A
  /// listing without a safe link is sent without one (its text is still worth the message).
  static func deliverable(_ listing: Listing) -> Listing {
    var shown = ListingCheck.shown(listing)
    // Checked as stored: a control character is a reason to drop an address, not to mend it.
    if !isWeb(listing.url) { shown.url = "" }
    if !listing.imageURLs.allSatisfy({ isWeb($0) }) {
      shown.imageURLs = listing.imageURLs.filter { isWeb($0) }
    }
    return shown
  }

  /// The listing a message is about: only a one-listing message has a link (a digest has
  /// none: no photo, no buttons). `listings` are all the search's listings being sent.
  static func listing(of message: Message, in listings: [Listing]) -> Listing? {
    guard let link = message.link else { return nil }
    return listings.first { $0.url == link }
  }

  /// The photo of a message's listing (``listing(of:in:)``), when it has one a service may fetch.
  static func photo(of listing: Listing?) -> String? {
    listing?.imageURLs.first { isWeb($0) }
  }

  /// `text` percent-encoded for a form value or a path segment: only letters, digits and
  /// `-._~` stay as they are.
  static func percentEncoded(_ text: String) -> String {
    var allowed = CharacterSet(charactersIn: "-._~")
    allowed.formUnion(
      CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }

  /// A service's JSON answer as an object, if it is one (at most 1 MiB is read).
  static func object(_ body: [UInt8]) -> [String: Any]? {
    guard body.count <= 1 << 20 else { return nil }
    return try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
  }
}
