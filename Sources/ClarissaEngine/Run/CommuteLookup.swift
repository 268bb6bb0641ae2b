public import ClarissaCore
public import ListingStore

/// Travel times for listings from the store's cache alone (`travel_times`): what `listings`,
/// `show`, `serve`'s pages and map show of a search's `commute:`, and the first two steps of
/// a run's stage (``Commuting``): the straight-line bound, then the cache. Nothing is asked.
public enum CommuteLookup {
  /// Fills `listing.commute` of every listing with coordinates: one ``CommuteTime`` per limit,
  /// in the limits' order. A listing beyond a limit's straight-line bound says so ("beyond
  /// 35 km in a straight line"); one whose cell the store holds no answer for is unknown
  /// ("not asked yet"; "no engine in routing:" when `routing` names none for the mode). A
  /// listing without coordinates is left without times, as it is without distances.
  public static func attach(
    _ listings: inout [Listing], limits: [CommuteLimit], routing: RoutingSettings,
    memory: any ListingMemory
  ) throws {
    guard !limits.isEmpty else { return }
    var sheets: [CommuteSheet] = []
    for limit in limits {
      var sheet = CommuteSheet(limit, listings, engine: routing.engines[limit.mode])
      try sheet.read(memory)
      sheets.append(sheet)
    }
    fill(&listings, from: sheets)
  }

  /// Each listing's times from `sheets` (one per limit, made from these listings).
  static func fill(_ listings: inout [Listing], from sheets: [CommuteSheet]) {
    for index in listings.indices where listings[index].coordinates != nil {
      listings[index].commute = sheets.compactMap { $0.time(index) }
    }
  }
}

/// One limit's travel times for a list of listings: where each listing stands (no
/// coordinates, beyond the straight-line bound, or in a grid cell), and the minutes known of
/// each cell; a cell not known says why in ``unknown``.
struct CommuteSheet {
  /// Where a listing stands for the limit.
  enum Slot {
    /// No coordinates: no time, no request.
    case none
    /// Farther in a straight line than the limit's reach: no request.
    case beyond
    /// In this grid cell (``CommuteGrid/key(_:)``).
    case cell(String)
  }

  let limit: CommuteLimit
  /// The mode's engine; nil: `routing:` names none.
  let engine: RoutingEngine?
  /// Per listing, in the listings' order.
  let slots: [Slot]
  /// The cells within reach, the nearest to the place first, with the point the engine is
  /// asked for (the cell's, so a kept answer is exactly the one for its key).
  let cells: [(key: String, point: Coordinates)]
  /// Minutes by cell, nil inside where the engine found no route.
  var known: [String: Double?] = [:]
  /// Why a cell with no answer has none.
  var unknown: String

  /// The store's key of the place.
  var place: String { CommuteGrid.placeKey(limit.place.coordinates) }

  /// The slots of `listings` for `limit`.
  init(_ limit: CommuteLimit, _ listings: [Listing], engine: RoutingEngine?) {
    self.limit = limit
    self.engine = engine
    unknown = engine == nil ? "no engine in routing:" : "not asked yet"
    let reach = limit.reach
    var slots: [Slot] = []
    slots.reserveCapacity(listings.count)
    var distances: [String: (Double, Coordinates)] = [:]
    for listing in listings {
      guard let here = listing.coordinates else {
        slots.append(.none)
        continue
      }
      let straight = limit.place.coordinates.distance(to: here)
      guard straight <= reach else {
        slots.append(.beyond)
        continue
      }
      let key = CommuteGrid.key(here)
      slots.append(.cell(key))
      if distances[key] == nil { distances[key] = (straight.metres, CommuteGrid.cell(here)) }
    }
    self.slots = slots
    cells = distances.sorted { ($0.value.0, $0.key) < ($1.value.0, $1.key) }.map {
      ($0.key, $0.value.1)
    }
  }

  /// The store's answers for the cells (none without an engine: its name is the key).
  mutating func read(_ memory: any ListingMemory) throws {
    guard let engine, !cells.isEmpty else { return }
    known = try memory.travelTimes(
      engine: engine.cacheName, mode: limit.mode, place: place, cells: cells.map(\.key))
  }

  /// The cells no answer is known for, the nearest first.
  var unanswered: [(key: String, point: Coordinates)] { cells.filter { known[$0.key] == nil } }

  /// The time of the listing at `index`; nil without coordinates.
  func time(_ index: Int) -> CommuteTime? {
    let (name, mode) = (limit.place.name, limit.mode)
    switch slots[index] {
    case .none:
      return nil
    case .beyond:
      return CommuteTime(
        place: name, by: mode, minutes: nil,
        note: "beyond \(limit.reach.words(in: limit.place.unit)) in a straight line")
    case .cell(let key):
      switch known[key] {
      case .some(.some(let minutes)): return CommuteTime(place: name, by: mode, minutes: minutes)
      case .some(.none): return CommuteTime(place: name, by: mode, minutes: nil, note: "no route")
      case .none: return CommuteTime(place: name, by: mode, minutes: nil, note: unknown)
      }
    }
  }
}
