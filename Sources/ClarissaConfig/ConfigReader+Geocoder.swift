internal import ClarissaCore
internal import Foundation
internal import YAML

/// `geocoder:`: where the coordinates of listings that give only an address are looked up
/// (``GeocoderSettings``). A URL alone, or a mapping with `url`, `email`, `per_run`, `delay`
/// and `retry_not_found`.
extension ConfigReader {
  static let geocoderKeys = ["url", "email", "per_run", "delay", "retry_not_found"]

  func readGeocoder(_ node: Node) -> GeocoderSettings? {
    if node.scalar != nil {
      return geocoderURL(node).map { GeocoderSettings(url: $0) }
    }
    guard let table = table(node, "'geocoder'") else { return nil }
    checkKeys(table, allowed: Self.geocoderKeys, in: "'geocoder'")
    let url = table["url"].flatMap(geocoderURL)
    if table["url"] == nil {
      error(
        "'geocoder' needs a 'url': a Nominatim-compatible search endpoint such as "
          + "'https://nominatim.openstreetmap.org/search'", at: node)
    }
    var settings = GeocoderSettings(url: url ?? "")
    if let value = table["email"] {
      settings.email = expandedString(value, "'geocoder.email'")
    }
    if let value = table["per_run"], let count = integer(value, "'geocoder.per_run'", in: 1...1000)
    {
      settings.perRun = count
    }
    if let value = table["delay"], let delay = interval(value, "'geocoder.delay'") {
      if delay < GeocoderSettings.leastDelay {
        error(
          "'geocoder.delay' \(delay) is shorter than \(GeocoderSettings.leastDelay): Nominatim's "
            + "usage policy allows one request a second", at: value)
      } else {
        settings.delay = delay
      }
    }
    if let value = table["retry_not_found"],
      let retry = interval(value, "'geocoder.retry_not_found'")
    {
      settings.retryNotFound = retry
    }
    return url == nil ? nil : settings
  }

  /// The endpoint: an http(s) URL with a host.
  private func geocoderURL(_ node: Node) -> String? {
    guard let url = expandedString(node, "'geocoder.url'") else { return nil }
    guard let components = URLComponents(string: url),
      ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
      !(components.host ?? "").isEmpty
    else {
      error(
        "'geocoder.url' must be an http(s) URL such as "
          + "'https://nominatim.openstreetmap.org/search' (found '\(url)')", at: node)
      return nil
    }
    return url
  }
}
