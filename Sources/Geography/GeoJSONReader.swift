public import ClarissaCore

/// Reads a GeoJSON file (RFC 7946) into a ``GeoArea``: a Polygon, a MultiPolygon, a Feature or
/// GeometryCollection of them, or a FeatureCollection; every problem located in the file by
/// line and column, all of them found in one pass.
public enum GeoJSONReader {
  /// Larger files are refused before reading (a city district is tens of kilobytes).
  public static let maxFileBytes = 32 << 20
  /// More corners than this in one file are refused.
  public static let maxPositions = 1_000_000

  /// The area `bytes` draw, and the problems found; the area is nil when any is an error.
  /// `file` is what messages call the file; more than `maxPositions` corners are an error at
  /// the ring that passes it.
  public static func read(_ bytes: [UInt8], file: String, maxPositions: Int = maxPositions) -> (
    area: GeoArea?, diagnostics: [Diagnostic]
  ) {
    guard bytes.count <= maxFileBytes else {
      return (
        nil,
        [
          .error(
            "'\(file)' is larger than \(maxFileBytes >> 20) MiB; simplify the shape (e.g. "
              + "with mapshaper)", at: SourceLocation(file: file, line: 1, column: 1))
        ]
      )
    }
    let root: JSONNode
    do {
      root = try JSONNodeParser.parse(bytes)
    } catch {
      return (
        nil,
        [
          .error(
            "'\(file)' is not valid JSON: \(error.message)",
            at: SourceLocation(file: file, line: error.line, column: error.column))
        ]
      )
    }
    var reading = Reading(file: file, maxPositions: maxPositions)
    reading.object(root, expecting: "a GeoJSON object")
    if reading.polygons.isEmpty, !reading.diagnostics.contains(where: { $0.severity == .error }) {
      reading.error(
        "'\(file)' holds no Polygon or MultiPolygon; 'within' needs an area", at: root)
    }
    let failed = reading.diagnostics.contains { $0.severity == .error }
    let area =
      failed ? nil : GeoArea(name: file, polygons: reading.polygons.map(GeoArea.Polygon.init))
    return (area, reading.diagnostics)
  }
}

/// One file's reading: the polygons found and the problems.
private struct Reading {
  let file: String
  var polygons: [[[Coordinates]]] = []
  var diagnostics: [Diagnostic] = []
  var positions = 0
  /// The most positions read.
  let maxPositions: Int

  init(file: String, maxPositions: Int) {
    self.file = file
    self.maxPositions = maxPositions
  }

  func location(_ node: JSONNode) -> SourceLocation {
    SourceLocation(file: file, line: node.line, column: node.column)
  }

  mutating func error(_ message: String, at node: JSONNode) {
    diagnostics.append(.error(message, at: location(node)))
  }

  mutating func warning(_ message: String, at node: JSONNode) {
    diagnostics.append(.warning(message, at: location(node)))
  }

  /// A GeoJSON object of any type: its polygons are added.
  mutating func object(_ node: JSONNode, expecting what: String) {
    guard case .object = node.value else {
      error("expected \(what), found \(node.kind)", at: node)
      return
    }
    guard let typeNode = node["type"], case .string(let type) = typeNode.value else {
      error(
        "\(what) needs a \"type\" (Polygon, MultiPolygon, Feature, FeatureCollection)", at: node)
      return
    }
    switch type {
    case "Polygon", "MultiPolygon":
      guard let coordinates = node["coordinates"] else {
        error("a \(type) needs \"coordinates\"", at: node)
        return
      }
      if type == "Polygon" {
        polygon(coordinates)
      } else {
        for item in list(coordinates, "a MultiPolygon's coordinates (a list of polygons)") {
          polygon(item)
        }
      }
    case "Feature":
      // RFC 7946 allows a Feature without a place (`"geometry": null`): it draws nothing.
      if let geometry = node["geometry"], case .null = geometry.value {
        warning("a Feature without geometry draws no area; it is left out", at: geometry)
        return
      }
      guard let geometry = node["geometry"], case .object = geometry.value else {
        error("a Feature needs a \"geometry\" object (a Polygon or MultiPolygon)", at: node)
        return
      }
      object(geometry, expecting: "a geometry")
    case "FeatureCollection":
      guard let features = node["features"] else {
        error("a FeatureCollection needs \"features\"", at: node)
        return
      }
      for feature in list(features, "\"features\"") { object(feature, expecting: "a Feature") }
    case "GeometryCollection":
      guard let geometries = node["geometries"] else {
        error("a GeometryCollection needs \"geometries\"", at: node)
        return
      }
      for geometry in list(geometries, "\"geometries\"") {
        object(geometry, expecting: "a geometry")
      }
    case "Point", "MultiPoint", "LineString", "MultiLineString":
      error(
        "a \(type) encloses no area; 'within' takes a Polygon or MultiPolygon (for a distance "
          + "from a point, name it under 'places' and use 'near')", at: typeNode)
    default:
      error(
        "unknown GeoJSON type '\(type)'"
          + Suggestions.hint(
            for: type,
            in: ["Polygon", "MultiPolygon", "Feature", "FeatureCollection", "GeometryCollection"]),
        at: typeNode)
    }
  }

  mutating func list(_ node: JSONNode, _ what: String) -> [JSONNode] {
    guard case .array(let items) = node.value else {
      error("expected a list for \(what), found \(node.kind)", at: node)
      return []
    }
    return items
  }

  /// A polygon's rings: the outer ring, then holes.
  mutating func polygon(_ node: JSONNode) {
    let ringNodes = list(node, "a polygon (a list of rings)")
    guard !ringNodes.isEmpty else {
      if case .array = node.value { error("a polygon needs at least its outer ring", at: node) }
      return
    }
    var rings: [[Coordinates]] = []
    for (number, ringNode) in ringNodes.enumerated() {
      if let ring = ring(ringNode, outer: number == 0) { rings.append(ring) }
    }
    if rings.count == ringNodes.count { polygons.append(rings) }
  }

  /// One ring: at least four positions, the last repeating the first (a ring left open is
  /// closed, with a warning).
  mutating func ring(_ node: JSONNode, outer: Bool) -> [Coordinates]? {
    let name = outer ? "an outer ring" : "a hole"
    let items = list(node, "\(name) (a list of [longitude, latitude] positions)")
    guard case .array = node.value else { return nil }
    let before = positions
    positions += items.count
    guard positions <= maxPositions else {
      // Said once, at the ring that passes the limit.
      if before <= maxPositions {
        error(
          "'\(file)' has more than \(maxPositions) positions (the limit), this ring brings them "
            + "to \(positions); simplify the shape (e.g. with mapshaper)", at: node)
      }
      return nil
    }
    var corners: [Coordinates] = []
    // The first bad position of a ring is reported; the rest are usually the same mistake.
    for item in items {
      guard let corner = position(item) else { return nil }
      corners.append(corner)
    }
    if let first = corners.first, let last = corners.last, first != last {
      warning(
        "\(name) is not closed (its last position differs from its first); it is read as "
          + "closed", at: node)
      corners.append(first)
    }
    let distinct = Set(corners.map { SIMD2($0.latitude, $0.longitude) }).count
    guard corners.count >= 4, distinct >= 3 else {
      error(
        "\(name) needs at least three different corners (four positions, the last repeating "
          + "the first), found \(distinct)", at: node)
      return nil
    }
    if Self.area(corners) == 0 {
      warning("\(name) encloses no area: its corners lie on one line", at: node)
    }
    return corners
  }

  /// `[longitude, latitude]` (an altitude after them is ignored).
  mutating func position(_ node: JSONNode) -> Coordinates? {
    guard case .array(let values) = node.value, values.count >= 2,
      case .number(let longitude) = values[0].value, case .number(let latitude) = values[1].value
    else {
      error("expected a position [longitude, latitude], found \(node.kind)", at: node)
      return nil
    }
    let place = Coordinates(latitude: latitude, longitude: longitude)
    guard place.isOnGlobe else {
      let swapped = abs(longitude) <= 90 && abs(latitude) <= 180
      error(
        "position [\(longitude), \(latitude)] is off the globe (longitude -180 to "
          + "180, latitude -90 to 90)"
          + (swapped ? "; GeoJSON writes [longitude, latitude], longitude first" : ""), at: node)
      return nil
    }
    return place
  }

  /// Twice the ring's signed area in square degrees (the shoelace formula).
  static func area(_ ring: [Coordinates]) -> Double {
    zip(ring, ring.dropFirst()).reduce(0) {
      $0 + $1.0.longitude * $1.1.latitude - $1.1.longitude * $1.0.latitude
    }
  }
}
