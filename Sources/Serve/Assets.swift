/// The pages' style sheet and script and the map's script, served from `/assets/` (nothing from
/// other hosts: the pages work with no internet; only the sites' photos and the map's tiles need
/// it). Each is a file of `Sources/Serve/Assets/`, compiled into the program (SwiftPM
/// `embedInCode`, `PackageResources.<name>`, listed in Package.swift) and served as it is.
enum Assets {
  /// `/assets/style.css`: the pages' style, the marks' badges and forms among it.
  static let style = PackageResources.style_css

  /// `/assets/app.js`: what the pages' script does (they work without it): a listing opened from
  /// a card is shown as viewed at once; a photo that cannot load (offline) says so; the filter's
  /// choices apply as soon as they change.
  static let script = PackageResources.app_js

  /// `/assets/map.js`: the map page's script, beside Debian's Leaflet (`/assets/leaflet/`). It
  /// asks `/api/map` with the page's filters and puts a marker per listing in a cluster group; a
  /// popup, and the tooltip of a place or an area, is made of elements whose text is set as text
  /// (nothing from a listing or the config becomes HTML: Leaflet would take a string for HTML),
  /// its links only `http:`/`https:` addresses and this server's paths.
  static let mapScript = PackageResources.map_js
}
