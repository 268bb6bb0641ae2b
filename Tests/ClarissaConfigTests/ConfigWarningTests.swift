import Channels
import ClarissaConfig
import ClarissaCore
import Foundation
import Sites
import Testing

/// Given configs that read without error but mean something other than was meant, when they are
/// read, then a warning says so where it is written (file:line:column), and the config is kept.
@Suite struct ConfigWarningTests {
  static func warnings(_ text: String) -> [String] {
    let result = ConfigLoader.load(
      bytes: Array(text.utf8), name: "w.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    #expect(result.config != nil, "\(result.diagnostics)")
    return result.diagnostics.filter { $0.severity == .warning }.map {
      "\($0.location?.description ?? "?"): \($0.message)"
    }
  }

  /// `max: 1.200` on a site in euros is 1.2 euros, which keeps no flat.
  @Test func aPriceWithAPointBeforeThreeDigitsIsAThousandsSeparatorInEuros() {
    let text = """
      version: 1
      searches:
        - name: flats
          site: kleinanzeigen
          cities: [berlin]
          price: {min: 0.500, max: 1.200}
        - name: flats-plain
          site: kleinanzeigen
          cities: [berlin]
          price: {max: 1200, min: 2.5}
        - name: bikes
          cities: [sfbay]
          price: {max: 1.200}
      """
    #expect(
      Self.warnings(text) == [
        "w.yaml:6:30: 'price.max' 1.200 in search 'flats' is 1.2 EUR: in YAML a point is a "
          + "decimal point, not a thousands separator; write 1200 for 1200 EUR"
      ])
  }

  /// A place written longitude first is thousands of kilometres from every city of the
  /// searches that use it; written the other way round, it is in one.
  @Test func aPlaceFarFromItsSearchesSaysWhereItWouldBeSwapped() {
    let text = """
      version: 1
      places:
        work: [13.39, 52.51]
        home: [52.49, 13.42]
        far: [48.85, 2.35]
      searches:
        - name: flats
          cities: [berlin]
          near: {work: 3 km, home: 5 km, far: 900 km}
      """
    #expect(
      Self.warnings(text) == [
        "w.yaml:3:9: place 'work' is 5557 km from city 'berlin', the nearest city or area of the "
          + "searches that use it ('flats'); written [52.51, 13.39] it is 2.1 km from city "
          + "'berlin': places are [latitude, longitude], latitude first",
        "w.yaml:5:8: place 'far' is 879 km from city 'berlin', the nearest city or area of the "
          + "searches that use it ('flats')",
      ])
  }

  /// Where a search's site cannot place its cities, its `within` areas are where it looks.
  @Test func aPlaceIsMeasuredFromTheAreasOfItsSearches() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-warn-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Kreuzberg, roughly: its middle is [52.495, 13.41].
    let area =
      #"{"type": "Polygon", "coordinates": [[[13.37, 52.48], [13.45, 52.48], "#
      + #"[13.45, 52.51], [13.37, 52.51], [13.37, 52.48]]]}"#
    try Data(area.utf8).write(to: folder.appendingPathComponent("kreuzberg.geojson"))
    let config = """
      version: 1
      geocoder: http://127.0.0.1:9/search
      places:
        work: [13.41, 52.495]
      searches:
        - name: flats
          site: kleinanzeigen
          cities: [berlin]
          near: {work: 3 km}
          within: kreuzberg.geojson
      """
    let path = folder.appendingPathComponent("searches.yaml")
    try Data(config.utf8).write(to: path)
    let result = ConfigLoader.load(
      path: path.path, environment: [:], sites: Registry.sites, channels: ChannelRegistry.all)
    let warnings = result.diagnostics.filter { $0.severity == .warning }.map(\.message)
    #expect(
      warnings == [
        "place 'work' is 5552 km from area 'kreuzberg.geojson', the nearest city or area of the "
          + "searches that use it ('flats'); written [52.495, 13.41] it is 0 m from area "
          + "'kreuzberg.geojson': places are [latitude, longitude], latitude first"
      ])
  }

  /// `near` on a site that gives no coordinates, without a geocoder, decides nothing.
  @Test func nearOnASiteWithoutCoordinatesAndNoGeocoderIsSaid() {
    func text(_ geocoder: String) -> String {
      """
      version: 1
      \(geocoder)
      places:
        work: [52.52, 13.40]
      searches:
        - name: flats
          site: kleinanzeigen
          cities: [berlin]
          near: {work: 3 km}
          missing: drop
      """
    }
    #expect(
      Self.warnings(text("")) == [
        "w.yaml:9:5: 'near' in search 'flats' decides nothing: Kleinanzeigen gives no "
          + "coordinates and no 'geocoder' is set, so every listing is dropped (missing: drop); "
          + "set a 'geocoder' to place listings by their address"
      ])
    #expect(Self.warnings(text("geocoder: http://127.0.0.1:9/search")).isEmpty)
  }
}
