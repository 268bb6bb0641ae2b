internal import Foundation

/// A store's address as messages show it.
public enum StoreURL {
  /// `postgres://user:secret@host/db` shown as `postgres://user:***@host/db`.
  public static func masked(_ url: String) -> String {
    guard let scheme = url.range(of: "://"),
      let at = url.range(of: "@", range: scheme.upperBound..<url.endIndex),
      let colon = url.range(of: ":", range: scheme.upperBound..<at.lowerBound)
    else { return url }
    return url[..<colon.upperBound] + "***" + url[at.lowerBound...]
  }
}
