internal import Foundation

/// What a listing describes, as people read it: "2.5 rooms · 1 bedroom · 1 bath · 50 m²". One
/// wording for the terminal, the messages and the pages.
public enum ListingFacts {
  /// The facts of `listing` that it has, in one line; nil when it has none. The floor area in
  /// `unit`, else the unit the site gave it in, else square metres.
  public static func summary(_ listing: Listing, unit: AreaUnit? = nil) -> String? {
    var parts: [String] = []
    if let rooms = listing.rooms {
      parts.append(
        listing.roomsHigh.flatMap { $0 > rooms ? $0 : nil }.map {
          "\(number(rooms, digits: 1))–\(number($0, digits: 1)) rooms"
        } ?? counted(rooms, "room", "rooms"))
    }
    if let bedrooms = listing.bedrooms { parts.append(counted(bedrooms, "bedroom", "bedrooms")) }
    if let bathrooms = listing.bathrooms { parts.append(counted(bathrooms, "bath", "baths")) }
    if let area = floorArea(listing, unit: unit) { parts.append(area) }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// The floor area in `unit` (else the site's, else m²), rounded to a whole unit: "50 m²",
  /// "55–117 m²" for a range.
  public static func floorArea(_ listing: Listing, unit: AreaUnit? = nil, digits: Int = 0)
    -> String?
  {
    guard let squareMetres = listing.floorArea else { return nil }
    let shown = unit ?? listing.floorAreaUnit ?? .squareMetres
    let low = number(squareMetres / shown.squareMetres, digits: digits)
    guard let high = listing.floorAreaHigh, high > squareMetres else {
      return "\(low) \(shown.symbol)"
    }
    return "\(low)–\(number(high / shown.squareMetres, digits: digits)) \(shown.symbol)"
  }

  /// The postcode and address that the listing has, in one line ("10997 Berlin, Wrangelstr. 5").
  public static func place(_ listing: Listing) -> String? {
    let parts = [listing.postcode, listing.address].compactMap { $0 }.filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }

  /// `2 rooms`, `1 room`, `2.5 rooms`.
  static func counted(_ value: Double, _ one: String, _ many: String) -> String {
    "\(number(value, digits: 1)) \(value == 1 ? one : many)"
  }

  /// A number with at most `digits` decimals and none when whole: `2`, `2.5`, `47`.
  /// The fewest digits, `least` or more and at most 6, with which `value` and `other` are
  /// shown apart when they differ (49.99 and 50 at one digit are both "50").
  public static func digits(telling value: Double, from other: Double, atLeast least: Int) -> Int {
    var digits = max(0, least)
    while digits < 6, value != other, number(value, digits: digits) == number(other, digits: digits)
    {
      digits += 1
    }
    return digits
  }

  public static func number(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "?" }
    let scale = digits == 0 ? 1 : pow(10, Double(digits))
    let rounded = (value * scale).rounded() / scale
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
    return String(format: "%.\(digits)f", rounded)
  }
}
