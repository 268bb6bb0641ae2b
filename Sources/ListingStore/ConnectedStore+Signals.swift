internal import ClarissaCore
internal import Foundation

/// Warning signs (issue 43), in both stores alike: written with a search's record, read by key
/// for a message, a report, `show`, the page and the map.
extension ConnectedStore {
  public func signals(of keys: [ListingKey]) throws -> [ListingKey: [ListingSignal]] {
    guard !keys.isEmpty else { return [:] }
    return try locked { database in
      try database.reading {
        var found: [ListingKey: [ListingSignal]] = [:]
        let wanted = Set(keys)
        guard wanted.count > Self.signalLookups else {
          for key in wanted {
            let signals = try Self.signals(of: key, in: database)
            if !signals.isEmpty { found[key] = signals }
          }
          return found
        }
        // A map of 10,000 markers: the table (only listings with a sign) read once.
        try database.run("SELECT site, id, kind, text FROM signals") { row in
          let key = ListingKey(site: row.text(SignalColumn.site), id: row.text(SignalColumn.id))
          guard wanted.contains(key),
            let kind = ListingSignal.Kind(rawValue: row.text(SignalColumn.kind))
          else { return }
          found[key, default: []].append(ListingSignal(kind, row.text(SignalColumn.text)))
        }
        return found.mapValues(Self.ordered)
      }
    }
  }

  /// One listing's signs, in the order of ``ListingSignal/Kind/allCases``; a kind this build
  /// does not know (a later clarissa's) is left out.
  static func signals(of key: ListingKey, in database: Connection) throws -> [ListingSignal] {
    let rows = try database.rows(
      "SELECT kind, text FROM signals WHERE site = ? AND id = ?",
      [.text(key.site), .text(key.id)]
    ) { row -> ListingSignal? in
      ListingSignal.Kind(rawValue: row.text(SignalColumn.kind)).map {
        ListingSignal($0, row.text(SignalColumn.text))
      }
    }.compactMap { $0 }
    return ordered(rows)
  }

  /// More keys than this, and the whole table is read once rather than each key looked up.
  static var signalLookups: Int { 200 }

  /// Signs in the order of ``ListingSignal/Kind/allCases``.
  static func ordered(_ signals: [ListingSignal]) -> [ListingSignal] {
    let order = ListingSignal.Kind.allCases
    return signals.sorted {
      (order.firstIndex(of: $0.kind) ?? 0) < (order.firstIndex(of: $1.kind) ?? 0)
    }
  }

  /// The record's signs, each replacing the listing's earlier sign of its kind.
  static func writeSignals(_ record: SearchRecord, at now: StoreValue, in database: Connection)
    throws
  {
    for (key, signals) in record.signals.sorted(by: { $0.key < $1.key }) {
      for signal in signals {
        try database.run(
          "INSERT INTO signals(site, id, kind, text, found_at) VALUES(?, ?, ?, ?, ?) "
            + "ON CONFLICT(site, id, kind) DO UPDATE SET text = excluded.text, "
            + "found_at = excluded.found_at",
          [.text(key.site), .text(key.id), .text(signal.kind.rawValue), .text(signal.text), now])
      }
    }
  }
}
