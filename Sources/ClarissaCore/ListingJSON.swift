import Foundation

/// The JSON form of listings that `clarissa inspect --format json` prints and golden files hold:
/// sorted keys, ISO 8601 dates, one listing per array element.
public enum ListingJSON {
  /// Pretty-printed JSON for `listings`, ending with a newline.
  public static func encode(_ listings: [Listing]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode(listings) else { return "[]\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
