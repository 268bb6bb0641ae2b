internal import Foundation

/// Where the map page (`/map`) gets Leaflet and its tiles: `serve --leaflet`, `--map-tiles`,
/// `--map-attribution`.
package struct MapSettings: Sendable, Equatable {
  /// The folder Debian's `libjs-leaflet` and `libjs-leaflet.markercluster` install into.
  package static let debianLeaflet = "/usr/share/javascript/leaflet"
  /// OpenStreetMap's standard tiles (their use is bound by
  /// https://operations.osmfoundation.org/policies/tiles/).
  package static let openStreetMapTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
  /// The Debian packages the map needs, as the page and the docs name them.
  package static let packages = "libjs-leaflet libjs-leaflet.markercluster"

  /// The folder holding `leaflet.js`, `leaflet.markercluster.js` and their style sheets.
  package var leafletFolder: String
  /// The tiles' URL template (`{z}`, `{x}`, `{y}`; `{s}` for a subdomain).
  package var tiles: String
  /// The tiles' attribution as text; nil: OpenStreetMap's for its tiles, none for others.
  package var attribution: String?

  /// Settings; the defaults are Debian's folder and OpenStreetMap's tiles.
  package init(
    leafletFolder: String = debianLeaflet, tiles: String = openStreetMapTiles,
    attribution: String? = nil
  ) {
    self.leafletFolder = leafletFolder
    self.tiles = tiles
    self.attribution = attribution
  }

  /// Why `template` cannot be a tile URL template, or nil when it can: an `http:` or `https:`
  /// address naming `{z}`, `{x}` and `{y}`, with no quote, space or control character.
  package static func problem(tiles template: String) -> String? {
    let lower = template.lowercased()
    guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
      return "'\(template)' is not an http: or https: address"
    }
    for part in ["{z}", "{x}", "{y}"] where !template.contains(part) {
      return
        "'\(template)' does not name \(part) (a tile URL template such as \(openStreetMapTiles))"
    }
    if template.unicodeScalars.contains(where: {
      $0.properties.generalCategory == .control || " \"'<>\\`".unicodeScalars.contains($0)
    }) {
      return "'\(template)' holds a space, a quote, '<', '>', '\\' or a control character"
    }
    return nil
  }

  /// The attribution as HTML for Leaflet's control: OpenStreetMap's (with its copyright link)
  /// for its tiles, else the text given, escaped.
  var attributionHTML: HTML {
    if let attribution { return "\(attribution)" }
    guard tiles == Self.openStreetMapTiles else { return .empty }
    return
      "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"
  }
}
