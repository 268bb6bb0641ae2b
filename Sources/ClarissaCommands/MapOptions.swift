internal import ArgumentParser
internal import Serve

/// `--leaflet`, `--map-tiles`, `--map-attribution`: where `serve`'s map (and `watch --http`'s)
/// gets Leaflet and its tiles.
struct MapOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The folder holding Leaflet and Leaflet.markercluster for the map.",
      discussion: "Debian's libjs-leaflet and libjs-leaflet.markercluster install them in "
        + "\(MapSettings.debianLeaflet); clarissa serves leaflet.js, leaflet.css, "
        + "leaflet.markercluster.js, MarkerCluster.css, MarkerCluster.Default.css and Leaflet's "
        + "images from it, nothing else.",
      valueName: "folder"))
  var leaflet = MapSettings.debianLeaflet

  @Option(
    help: ArgumentHelp(
      "The map's tile URL template ({z}, {x}, {y}; {s} for a subdomain).",
      discussion: "OpenStreetMap's by default; mind its tile usage policy "
        + "(https://operations.osmfoundation.org/policies/tiles/), or run your own tile server.",
      valueName: "template"))
  var mapTiles = MapSettings.openStreetMapTiles

  @Option(help: ArgumentHelp("The tiles' attribution, shown on the map (text).", valueName: "text"))
  var mapAttribution: String?

  func validate() throws {
    if let problem = MapSettings.problem(tiles: mapTiles) {
      throw ValidationError("--map-tiles: \(problem)")
    }
  }

  /// The settings the web app uses.
  var settings: MapSettings {
    MapSettings(leafletFolder: leaflet, tiles: mapTiles, attribution: mapAttribution)
  }
}
