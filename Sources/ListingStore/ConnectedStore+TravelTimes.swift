internal import ClarissaCore
public import Foundation

/// A routing engine's travel times (`travel_times`, issue 44), kept so that a grid cell is
/// asked once per engine, mode and place, and asked again after ``TravelTimeCache/maxAge``.
extension ConnectedStore {
  public func travelTimes(engine: String, mode: TravelMode, place: String, cells: [String])
    throws -> [String: Double?]
  {
    let wanted = Array(Set(cells))
    guard !wanted.isEmpty else { return [:] }
    let fixed: [StoreValue] = [.text(engine), .text(mode.rawValue), .text(place)]
    return try locked { database in
      try database.reading {
        var found: [String: Double?] = [:]
        if wanted.count >= TravelTimeCache.scanFrom {
          // Many cells (a map, a search of thousands): the place's rows in one walk of the key.
          let asked = Set(wanted)
          try database.run(
            "SELECT cell, minutes FROM travel_times WHERE engine = ? AND mode = ? AND place = ?",
            fixed
          ) { row in
            let cell = row.text(TravelTimeColumn.cell)
            if asked.contains(cell) {
              found[cell] = .some(row.optionalDouble(TravelTimeColumn.minutes))
            }
          }
          return found
        }
        // One statement for every batch: the last key repeated to fill it, so that each store
        // prepares it once (a statement is kept by its text).
        let batch = TravelTimeCache.batch
        let marks = Array(repeating: "?", count: batch).joined(separator: ", ")
        let sql =
          "SELECT cell, minutes FROM travel_times WHERE engine = ? AND mode = ? AND place = ? "
          + "AND cell IN (\(marks))"
        for start in stride(from: 0, to: wanted.count, by: batch) {
          let keys = wanted[start..<min(start + batch, wanted.count)]
          let padded = Array(keys) + Array(repeating: keys.last ?? "", count: batch - keys.count)
          try database.run(sql, fixed + padded.map { .text($0) }) { row in
            found[row.text(TravelTimeColumn.cell)] = .some(
              row.optionalDouble(TravelTimeColumn.minutes))
          }
        }
        return found
      }
    }
  }

  public func rememberTravelTimes(
    engine: String, mode: TravelMode, place: String, _ times: [String: Double?], at now: Date
  ) throws {
    guard !times.isEmpty else { return }
    try locked { database in
      try database.transaction {
        for (cell, minutes) in times.sorted(by: { $0.key < $1.key }) {
          // A time that is no number is not kept: the cell is asked again, nothing guessed.
          if let minutes, !minutes.isFinite || minutes < 0 { continue }
          try database.run(
            "INSERT INTO travel_times(engine, mode, place, cell, minutes, asked_at) "
              + "VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(engine, mode, place, cell) DO UPDATE "
              + "SET minutes = excluded.minutes, asked_at = excluded.asked_at",
            [
              .text(engine), .text(mode.rawValue), .text(place), .text(cell),
              .doubleOrNull(minutes), .time(now),
            ])
        }
      }
    }
  }
}

/// How long the store keeps a travel time, and how it reads them.
public enum TravelTimeCache {
  /// A travel time older than this is forgotten by the prune of every run (by the
  /// `travel_times_asked` index), so the engine is asked again: timetables change with the
  /// seasons, roads with works, and 30 days keep a month of runs to one request per cell.
  public static let maxAge: TimeInterval = 30 * 86_400

  /// Cells read by one statement.
  static let batch = 100
  /// From this many cells on, the place's rows are read in one walk instead (`.ci/bench
  /// commute`: 65,527 cells read in batches took 184-193 ms).
  static let scanFrom = 2_000
}
