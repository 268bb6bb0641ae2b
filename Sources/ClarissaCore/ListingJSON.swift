public import Foundation

/// The JSON form of listings that `clarissa inspect --format json` prints and golden files hold:
/// sorted keys, ISO 8601 dates, one listing per array element.
public enum ListingJSON {
  /// Pretty-printed JSON for `listings`, ending with a newline.
  public static func encode(_ listings: [Listing]) -> String {
    guard let data = data(listings) else { return "[]\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// Any value in the same form (the run report, `listings --json`, `clarissa serve`'s API):
  /// pretty-printed, sorted keys, ISO 8601 dates, slashes unescaped. Nil when it cannot be
  /// encoded.
  public static func data<T: Encodable>(_ value: T) -> Data? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return try? encoder.encode(value)
  }
}
