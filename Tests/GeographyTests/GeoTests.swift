import ClarissaCore
import FixtureSupport
import Foundation
import Geography
import Testing

/// Given known distances between cities and GeoJSON areas with holes, when clarissa measures
/// and tests points, then the haversine distance is within 0.5 % of the reference and every
/// point falls on the side the drawing says, edges and corners included.
@Suite struct GeoTests {
  /// Reference lengths of the geodesic on the WGS-84 ellipsoid, in km. Airports: the Great Circle
  /// Mapper (gcmap.com, WGS-84) publishes JFK-LAX 2,475 mi, LHR-CDG 216 mi and SYD-MEL 439 mi.
  /// City centres (the coordinates as written): Vincenty's inverse formula on WGS-84 (T.
  /// Vincenty, "Direct and inverse solutions of geodesics on the ellipsoid", Survey Review 23
  /// (176), 1975), which gives the airports' figures above to the mile.
  static let references: [(String, Coordinates, Coordinates, Double)] = [
    ("Berlin - Munich", at(52.5200, 13.4050), at(48.1374, 11.5755), 504.6),
    ("Paris - London", at(48.8566, 2.3522), at(51.5074, -0.1278), 343.9),
    ("New York - Los Angeles", at(40.7128, -74.0060), at(34.0522, -118.2437), 3_944.4),
    ("Sydney - Melbourne", at(-33.8688, 151.2093), at(-37.8136, 144.9631), 713.9),
    ("JFK - LAX", at(40.639751, -73.778925), at(33.942536, -118.408075), 2_475 * 1.609344),
    ("LHR - CDG", at(51.4706, -0.461941), at(49.012779, 2.55), 216 * 1.609344),
    ("SYD - MEL", at(-33.946111, 151.177222), at(-37.673333, 144.843333), 439 * 1.609344),
  ]

  static func at(_ latitude: Double, _ longitude: Double) -> Coordinates {
    Coordinates(latitude: latitude, longitude: longitude)
  }

  @Test(arguments: references.indices)
  func haversineIsWithinHalfAPercentOfTheGeodesic(index: Int) {
    let (name, from, to, kilometres) = Self.references[index]
    let measured = from.distance(to: to).value(in: .kilometres)
    let error = abs(measured - kilometres) / kilometres
    #expect(error < 0.005, "\(name): \(measured) km against \(kilometres) km")
    // The same both ways, and nothing from a place to itself.
    #expect(abs(to.distance(to: from).metres - measured * 1000) < 1e-6)
    #expect(from.distance(to: from).metres == 0)
  }

  @Test func antipodesAreHalfTheCircumference() {
    let half = Self.at(0, 0).distance(to: Self.at(0, 180)).metres
    #expect(abs(half - Double.pi * Coordinates.earthRadius) < 1e-3)
  }

  @Test func distancesAreWordedInTheirUnit() {
    #expect(Distance(2_140, .metres).words(in: .kilometres) == "2.1 km")
    #expect(Distance(846, .metres).words(in: .kilometres) == "850 m")
    #expect(Distance(3, .kilometres).words(in: .kilometres) == "3 km")
    #expect(Distance(2, .miles).words(in: .miles) == "2 mi")
    #expect(Distance(1_234.5, .metres).words(in: .metres) == "1235 m")
  }

  static func area(_ name: String) throws -> GeoArea {
    let url = Fixtures.root.appendingPathComponent("geo/\(name)")
    let (area, problems) = GeoJSONReader.read(Array(try Data(contentsOf: url)), file: name)
    #expect(!problems.contains { $0.severity == .error }, "\(problems)")
    return try #require(area)
  }

  /// Points and whether each is in the area: inside, in a hole, on edges and corners (the
  /// boundary belongs to the area, a hole's edge too), outside.
  @Test(arguments: [
    ("square-with-hole.geojson", 2.0, 2.0, true),
    ("square-with-hole.geojson", 5.0, 5.0, false),  // in the hole
    ("square-with-hole.geojson", 4.0, 5.0, true),  // on the hole's edge
    ("square-with-hole.geojson", 6.0, 6.0, true),  // on the hole's corner
    ("square-with-hole.geojson", 0.0, 0.0, true),  // the outer corner
    ("square-with-hole.geojson", 10.0, 5.0, true),  // on the outer edge
    ("square-with-hole.geojson", 5.0, 10.0, true),  // on the top edge
    ("square-with-hole.geojson", 10.000001, 5.0, false),
    ("square-with-hole.geojson", -1.0, 5.0, false),
    ("square-with-hole.geojson", 5.0, 4.0, true),  // a ray along the hole's bottom edge
    ("square-with-hole.geojson", 3.0, 4.0, true),  // a ray through the hole's corner
    ("two-islands.geojson", 1.0, 1.0, true),
    ("two-islands.geojson", 3.0, 3.0, false),  // between the islands
    ("two-islands.geojson", 6.0, 6.0, false),  // in the second island's hole
    ("two-islands.geojson", 5.2, 6.0, true),
    ("features.geojson", 25.0, 22.0, true),  // the triangle
    ("features.geojson", 29.0, 29.0, false),  // beside the triangle's slope
    ("features.geojson", 25.0, 30.0, true),  // the triangle's apex
    ("features.geojson", 40.5, 40.5, true),  // the MultiPolygon with altitudes
    ("open-ring.geojson", 2.0, 2.0, true),
    ("open-ring.geojson", 0.0, 2.0, true),  // on the closing edge left out of the file
    ("open-ring.geojson", 5.0, 2.0, false),
  ])
  func pointsFallWhereTheDrawingSays(
    file: String, longitude: Double, latitude: Double, inside: Bool
  )
    throws
  {
    let area = try Self.area(file)
    #expect(area.contains(Self.at(latitude, longitude)) == inside)
  }

  @Test func anOpenRingIsReadClosedWithAWarning() {
    let text = #"{"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 4]]]}"#
    let (area, problems) = GeoJSONReader.read(Array(text.utf8), file: "open.geojson")
    #expect(area != nil)
    #expect(problems.map(\.severity) == [.warning])
    #expect(problems.first?.message.contains("is not closed") == true)
    #expect(problems.first?.location?.description == "open.geojson:1:37")
  }

  @Test func degenerateRingsContainOnlyTheirEdges() {
    // Built directly, as a file could not say it: a ring of two corners, a ring on one line.
    let line = GeoArea.Polygon(rings: [[Self.at(0, 0), Self.at(0, 2), Self.at(0, 0)]])
    #expect(line.contains(Self.at(0, 1)))
    #expect(!line.contains(Self.at(0.5, 1)))
    let flat = GeoArea.Polygon(rings: [[Self.at(0, 0), Self.at(1, 1), Self.at(2, 2)]])
    #expect(flat.contains(Self.at(1.5, 1.5)))
    #expect(!flat.contains(Self.at(1, 1.5)))
    let empty = GeoArea.Polygon(rings: [[]])
    #expect(!empty.contains(Self.at(0, 0)))
  }

  /// A ring of 1,000 corners (a circle with a circular hole): its band index answers as a
  /// plain test of every edge does.
  @Test func aLargeRingAnswersAsEveryEdgeTested() {
    func circle(_ radius: Double, _ count: Int) -> [Coordinates] {
      (0...count).map { step in
        let angle = Double(step % count) / Double(count) * 2 * Double.pi
        return Self.at(52.5 + radius * sin(angle), 13.4 + radius * cos(angle))
      }
    }
    let polygon = GeoArea.Polygon(rings: [circle(0.1, 1_000), circle(0.03, 200)])
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let point = Self.at(
        52.5 + Double.random(in: -0.12...0.12, using: &generator),
        13.4 + Double.random(in: -0.12...0.12, using: &generator))
      let distance =
        ((point.latitude - 52.5) * (point.latitude - 52.5)
        + (point.longitude - 13.4) * (point.longitude - 13.4)).squareRoot()
      // Away from the rings' chords, the circle says where the point is.
      guard abs(distance - 0.1) > 1e-4, abs(distance - 0.03) > 1e-3 else { continue }
      #expect(polygon.contains(point) == (distance < 0.1 && distance > 0.03), "\(point)")
    }
  }

  /// A comb: `teeth` teeth up and down along the top, closed along the bottom; every tooth's
  /// edges span nearly the whole height, the worst case for an index by latitude bands.
  static func comb(teeth: Int) -> [Coordinates] {
    var corners: [Coordinates] = []
    for tooth in 0..<teeth {
      let x = 13.3 + 0.2 * Double(tooth) / Double(teeth)
      corners += [Self.at(52.6, x), Self.at(52.4001, x + 0.1 / Double(teeth))]
    }
    return corners + [Self.at(52.4, 13.5), Self.at(52.4, 13.3), corners[0]]
  }

  /// Even-odd over every edge, as the index must answer (away from the edges).
  static func insideByEveryEdge(_ ring: [Coordinates], _ point: Coordinates) -> Bool {
    var inside = false
    for (a, b) in zip(ring, ring.dropFirst())
    where (a.latitude > point.latitude) != (b.latitude > point.latitude) {
      let crossing =
        a.longitude + (point.latitude - a.latitude) * (b.longitude - a.longitude)
        / (b.latitude - a.latitude)
      if point.longitude < crossing { inside.toggle() }
    }
    return inside
  }

  /// A comb of 2,000 teeth (4,003 corners) whose edges each span nearly every latitude band:
  /// the index holds at most four entries per edge (before, each edge once per band: 4,000,000
  /// entries; 20,000 corners took `validate` to 3.4 GB), and answers as every edge tested.
  @Test func anIndexIsLinearInTheCornersWhateverTheShape() {
    let ring = Self.comb(teeth: 2_000)
    let polygon = GeoArea.Polygon(rings: [ring])
    let edges = ring.count - 1
    #expect(polygon.indexEntries <= 4 * edges, "\(polygon.indexEntries) for \(edges) edges")
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let point = Self.at(
        Double.random(in: 52.39...52.61, using: &generator),
        Double.random(in: 13.29...13.51, using: &generator))
      #expect(polygon.contains(point) == Self.insideByEveryEdge(ring, point), "\(point)")
    }
  }

  /// Past the limit of positions, one error at the ring that passes it, with the count.
  @Test func tooManyPositionsAreOneErrorAtTheRingThatPassesTheLimit() {
    let ring = "[[0, 0], [1, 0], [1, 1], [0, 0]]"
    let text = "{\"type\": \"Polygon\", \"coordinates\": [\n  \(ring),\n  \(ring),\n  \(ring)]}"
    let (area, problems) = GeoJSONReader.read(
      Array(text.utf8), file: "area.geojson", maxPositions: 6)
    #expect(area == nil)
    let errors = problems.filter { $0.severity == .error }
    #expect(errors.count == 1, "\(errors)")
    #expect(errors.first?.location?.description == "area.geojson:3:3")
    #expect(
      errors.first?.message
        == "'area.geojson' has more than 6 positions (the limit), this ring brings them to 8; "
        + "simplify the shape (e.g. with mapshaper)")
    #expect(GeoJSONReader.read(Array(text.utf8), file: "a", maxPositions: 12).area != nil)
  }

  /// Every problem of a GeoJSON text, at its line and column.
  @Test(arguments: [
    (
      #"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,0]],]}"#, "1:63",
      "expected a JSON value"
    ),
    (
      "{\n  \"type\": \"Polygon\",\n  \"coordinates\": [[[0, 0], [1, 0], [1, 1]]\n}", "4:1",
      "expected ',' or ']'"
    ),
    (#"{"type": "Point", "coordinates": [0, 0]}"#, "1:10", "a Point encloses no area"),
    (
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}"#, "1:37",
      "at least three different corners"
    ),
    (
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 95], [0, 0]]]}"#, "1:54",
      "off the globe"
    ),
    (
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, "a"], [0, 0]]]}"#, "1:54",
      "expected a position"
    ),
    (#"{"type": "Feature", "geometry": null}"#, "1:1", "holds no Polygon"),
    (#"{"type": "Feature", "geometry": [1]}"#, "1:1", "needs a \"geometry\""),
    (#"{"type": "Polygone"}"#, "1:10", "did you mean 'Polygon'?"),
    (#"{"type": "FeatureCollection", "features": []}"#, "1:1", "holds no Polygon"),
    (
      #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]} x"#, "1:72",
      "unexpected text"
    ),
    ("{\"type\": \"Polygon\", \"name\": \"caf\u{E9}\t\"}", "1:34", "a control character"),
    (#"{"type": "Polygon", "coordinates": [[[01, 0]]]}"#, "1:39", "leading zeros"),
    (String(repeating: "[", count: 70), "1:65", "nested deeper than 64"),
  ])
  func problemsAreLocated(text: String, place: String, words: String) {
    let (area, problems) = GeoJSONReader.read(Array(text.utf8), file: "area.geojson")
    #expect(area == nil)
    let first = problems.first { $0.severity == .error }
    #expect(first?.location?.description == "area.geojson:\(place)", "\(problems)")
    #expect(first?.message.contains(words) == true, "\(first?.message ?? "none")")
  }

  @Test func jsonTextIsReadWithEscapes() throws {
    let text = #"{"a": "\u00fc\"\\\/\n\ud83d\ude00", "b": [1.5e2, -0, true, false, null]}"#
    let node = try JSONNodeParser.parse(Array(text.utf8))
    guard case .string(let a)? = node["a"]?.value, case .array(let b)? = node["b"]?.value else {
      Issue.record("not read: \(node)")
      return
    }
    #expect(a == "ü\"\\/\n😀")
    #expect(b.map(\.kind) == ["a number", "a number", "true or false", "true or false", "null"])
    guard case .number(let number) = b[0].value else { return }
    #expect(number == 150)
  }
}
