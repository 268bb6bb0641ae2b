internal import ClarissaCore
internal import Foundation

/// The searches' `within:` areas as the map draws them, `/api/map/areas`: each area cut to at
/// most ``vertexBudget`` corners (Douglas-Peucker, after every k-th corner of an outline of more
/// than 8 times that: the corners that bend the outline most are kept), coordinates to 6
/// decimals (some 10 cm), once per config (``WebApp`` keeps the answer and its tag). A screen
/// shows a few thousand corners of an outline at most; an area of a million corners was 21.7 MB
/// on every load of the map.
enum MapAreas {
  /// Corners kept of one area, all its rings together.
  static let vertexBudget = 4_000

  /// `{"areas": [{"name", "polygons"}]}`, polygons as rings of `[lon, lat]` (GeoJSON's order).
  static func json(_ areas: [GeoArea], budget: Int = vertexBudget) -> [UInt8] {
    var out = "{\"areas\":["
    for (index, area) in areas.enumerated() {
      if index > 0 { out += "," }
      out += "{\"name\":\(MapData.text(area.name)),\"polygons\":["
      let polygons = simplified(area.polygons.map(\.rings), budget: budget)
      out += polygons.map { rings in
        "["
          + rings.map { ring in
            "["
              + ring.map { "[\(number($0.longitude)),\(number($0.latitude))]" }
              .joined(separator: ",") + "]"
          }.joined(separator: ",") + "]"
      }.joined(separator: ",")
      out += "]}"
    }
    out += "]}\n"
    return Array(out.utf8)
  }

  /// A coordinate to 6 decimals, as JSON writes it (0 when not finite).
  private static func number(_ value: Double) -> String {
    MapData.number((value * 1e6).rounded() / 1e6)
  }

  /// `polygons` (rings of corners) with at most `budget` corners in all: the corners of least
  /// significance go first. A ring left with fewer than 4 corners (3 and the closing one) is left
  /// out, and a polygon whose outer ring is.
  static func simplified(_ polygons: [[[Coordinates]]], budget: Int) -> [[[Coordinates]]] {
    var polygons = polygons
    var total = polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
    guard total > budget else { return polygons }
    // Douglas-Peucker takes time quadratic in the corners on some outlines (one corner peeled
    // off each step): past 8 times the budget, every k-th corner (and each ring's last) goes in.
    let stride = (total + 8 * budget - 1) / (8 * budget)
    if stride > 1 {
      polygons = polygons.map { rings in
        rings.map { ring in
          ring.indices.filter { $0 % stride == 0 || $0 == ring.count - 1 }.map { ring[$0] }
        }
      }
      total = polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
      guard total > budget else { return polygons }
    }
    let weights = polygons.map { $0.map(significance) }
    // The budget-th greatest significance is the bar a corner must reach.
    var all = weights.flatMap { $0.flatMap { $0 } }
    all.sort(by: >)
    let bar = all[max(0, budget - 1)]
    // Corners at the bar itself, kept while the budget lasts.
    var kept = budget - all.prefix { $0 > bar }.count
    var result: [[[Coordinates]]] = []
    for (rings, ringWeights) in zip(polygons, weights) {
      var polygon: [[Coordinates]] = []
      for (ring, weight) in zip(rings, ringWeights) {
        var corners: [Coordinates] = []
        for (corner, value) in zip(ring, weight) where value > bar || (value == bar && kept > 0) {
          if value == bar { kept -= 1 }
          corners.append(corner)
        }
        if corners.count >= 4 {
          polygon.append(corners)
        } else if polygon.isEmpty {
          break  // its outer ring is gone: so is it
        }
      }
      if !polygon.isEmpty { result.append(polygon) }
    }
    return result
  }

  /// Each corner's significance in `ring`: the distance (in degrees, longitude scaled by the
  /// latitude's cosine) at which Douglas-Peucker would keep it, never more than its parents'
  /// (so that the corners over a bar are exactly those Douglas-Peucker keeps at that tolerance);
  /// the ends are kept always.
  static func significance(_ ring: [Coordinates]) -> [Double] {
    var weight = [Double](repeating: 0, count: ring.count)
    guard ring.count > 2 else { return weight.map { _ in .infinity } }
    weight[0] = .infinity
    weight[ring.count - 1] = .infinity
    let scale = cos(ring[0].latitude * .pi / 180)
    // Without recursion: a million corners would be too deep a stack.
    var spans: [(start: Int, end: Int, cap: Double)] = [(0, ring.count - 1, .infinity)]
    while let (start, end, cap) = spans.popLast() {
      guard end - start > 1 else { continue }
      var farthest = start + 1
      var distance = -1.0
      for index in (start + 1)..<end {
        let gap = Self.distance(ring[index], from: ring[start], to: ring[end], scale: scale)
        if gap > distance {
          distance = gap
          farthest = index
        }
      }
      let value = min(distance, cap)
      weight[farthest] = value
      spans.append((start, farthest, value))
      spans.append((farthest, end, value))
    }
    return weight
  }

  /// How far `point` is from the segment `a`-`b` (from `a` when they are one point).
  private static func distance(
    _ point: Coordinates, from a: Coordinates, to b: Coordinates, scale: Double
  ) -> Double {
    let (px, py) = (point.longitude * scale, point.latitude)
    let (ax, ay) = (a.longitude * scale, a.latitude)
    let (bx, by) = (b.longitude * scale, b.latitude)
    let (dx, dy) = (bx - ax, by - ay)
    let length = dx * dx + dy * dy
    guard length > 0, length.isFinite else { return hypot(px - ax, py - ay) }
    let along = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / length))
    let distance = hypot(px - (ax + along * dx), py - (ay + along * dy))
    return distance.isFinite ? distance : 0
  }
}
