/// A region of the map: polygons, each an outer ring with holes, as GeoJSON draws them. A point
/// is inside when it is inside a polygon's outer ring and in none of its holes (even-odd), or
/// on any ring's edge or vertex (the boundary belongs to the area). Rings are closed
/// implicitly. Longitude and latitude are taken as a plane: no polygon may cross the
/// antimeridian (180°), which no city's area does.
public struct GeoArea: Sendable {
  /// One polygon: its outer ring first, then its holes.
  public struct Polygon: Sendable {
    /// The rings, each a list of corners (a closing repeat of the first is allowed).
    public var rings: [[Coordinates]]
    fileprivate let index: EdgeIndex

    /// Creates a polygon from its outer ring and holes.
    public init(rings: [[Coordinates]]) {
      self.rings = rings
      index = EdgeIndex(rings)
    }

    /// Whether `point` is inside, or on an edge or corner.
    public func contains(_ point: Coordinates) -> Bool { index.contains(point) }

    /// The edges its index holds, counted once per band: linear in the corners.
    package var indexEntries: Int { index.bands.reduce(0) { $0 + $1.count } }
  }

  /// What the area is called in messages (the file as the config names it).
  public var name: String
  /// The polygons.
  public var polygons: [Polygon]

  /// Creates an area.
  public init(name: String, polygons: [Polygon]) {
    self.name = name
    self.polygons = polygons
  }

  /// Whether `point` is inside one of the polygons (or on its boundary).
  public func contains(_ point: Coordinates) -> Bool {
    polygons.contains { $0.contains(point) }
  }

  /// The number of corners, for figures.
  public var vertexCount: Int { polygons.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } } }
}

/// A polygon's edges, their numbers sorted into bands of latitude: a point meets only the edges
/// of its band (a 1,000-corner ring: about eight), not all of them.
private struct EdgeIndex: Sendable {
  struct Edge: Sendable {
    var ax, ay, bx, by: Double
  }

  /// How near (in degrees, about 0.1 mm) a point must be to an edge to lie on it.
  static let tolerance = 1e-9

  let minX, maxX, minY, maxY: Double
  let bandHeight: Double
  let edges: [Edge]
  /// Per band, the numbers of the edges (in `edges`) that reach into it.
  let bands: [[Int]]

  init(_ rings: [[Coordinates]]) {
    var edges: [Edge] = []
    for ring in rings {
      var corners = ring
      if corners.count > 1, corners.first == corners.last { corners.removeLast() }
      for (offset, a) in corners.enumerated() {
        let b = corners[(offset + 1) % corners.count]
        edges.append(Edge(ax: a.longitude, ay: a.latitude, bx: b.longitude, by: b.latitude))
      }
    }
    let xs = edges.map(\.ax)
    let ys = edges.map(\.ay)
    minX = xs.min() ?? 0
    maxX = xs.max() ?? -1
    minY = ys.min() ?? 0
    maxY = ys.max() ?? -1
    let count = Self.bandCount(edges, height: maxY - minY)
    let height = maxY > minY ? (maxY - minY) / Double(count) : 1
    bandHeight = height
    var bands = [[Int]](repeating: [], count: count)
    for (number, edge) in edges.enumerated() {
      let low = Self.band(min(edge.ay, edge.by), minY: minY, height: height, count: count)
      let high = Self.band(max(edge.ay, edge.by), minY: minY, height: height, count: count)
      for band in low...high { bands[band].append(number) }
    }
    self.edges = edges
    self.bands = bands
  }

  /// How many bands: about one per four edges, at most 4,096, and no more than keep the index
  /// linear in the edges. An edge is stored in every band it spans, at most its height over the
  /// band's plus 2; with `bands` bands that is at most `bands * spanned + 2 * edges` entries,
  /// where `spanned` is the sum of the edges' heights over the polygon's. A comb whose 20,000
  /// teeth span the whole height would otherwise be 20,000 x 4,096 entries (3.4 GB).
  static func bandCount(_ edges: [Edge], height: Double) -> Int {
    let most = max(1, min(4_096, edges.count / 4))
    guard height > 0, height.isFinite else { return 1 }
    let spanned = edges.reduce(0) { $0 + abs($1.by - $1.ay) } / height
    guard spanned > 0, spanned.isFinite else { return most }
    let fitting = (Double(entriesPerEdge * edges.count) / spanned).rounded(.down)
    return max(1, fitting >= Double(most) ? most : Int(fitting))
  }

  /// The index's entries per edge beyond the 2 every edge may take.
  static let entriesPerEdge = 2

  static func band(_ y: Double, minY: Double, height: Double, count: Int) -> Int {
    let position = ((y - minY) / height).rounded(.down)
    guard position.isFinite, position > 0 else { return 0 }
    return position >= Double(count) ? count - 1 : Int(position)
  }

  func contains(_ point: Coordinates) -> Bool {
    let x = point.longitude
    let y = point.latitude
    let margin = Self.tolerance
    guard x >= minX - margin, x <= maxX + margin, y >= minY - margin, y <= maxY + margin else {
      return false
    }
    var inside = false
    for number in bands[Self.band(y, minY: minY, height: bandHeight, count: bands.count)] {
      let edge = edges[number]
      if Self.touches(edge, x, y) { return true }
      // Half-open in latitude, so that a ray through a corner counts it once.
      if (edge.ay > y) != (edge.by > y) {
        let crossing = edge.ax + (y - edge.ay) * (edge.bx - edge.ax) / (edge.by - edge.ay)
        if x < crossing { inside.toggle() }
      }
    }
    return inside
  }

  /// Whether (x, y) lies on the edge, within ``tolerance``.
  static func touches(_ edge: Edge, _ x: Double, _ y: Double) -> Bool {
    let margin = tolerance
    guard x >= min(edge.ax, edge.bx) - margin, x <= max(edge.ax, edge.bx) + margin,
      y >= min(edge.ay, edge.by) - margin, y <= max(edge.ay, edge.by) + margin
    else { return false }
    let dx = edge.bx - edge.ax
    let dy = edge.by - edge.ay
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 0 else { return true }
    let cross = dx * (y - edge.ay) - dy * (x - edge.ax)
    return abs(cross) / length <= margin
  }
}
