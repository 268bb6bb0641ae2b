/// A search's filters on what a listing describes (rooms, bedrooms, floor area, price per
/// area) and where it is (`near` places, `within` areas). clarissa applies them to every site's
/// listings; a listing lacking a fact that a filter needs is kept unless `missing: drop`.
public struct FactFilters: Sendable {
  /// `rooms: {min, max}`.
  public var rooms: FactRange?
  /// `bedrooms: {min, max}`.
  public var bedrooms: FactRange?
  /// `floor_area: {min, max}`, in square metres.
  public var floorArea: FactRange?
  /// The unit `floor_area` is written in, for messages.
  public var floorAreaUnit: AreaUnit = .squareMetres
  /// `price_per_area: {min, max}`, in the listing's currency per one ``pricePerAreaUnit``.
  public var pricePerArea: FactRange?
  /// The area unit `price_per_area` counts per (`per:`, square metres unless it says).
  public var pricePerAreaUnit: AreaUnit = .squareMetres
  /// `near: {work: 3 km}`: each place and how far from it a listing may be.
  public var near: [PlaceRadius] = []
  /// Whether a listing must be near all of ``near``'s places or one of them.
  public var nearMode: NearMode = .all
  /// `within: [files]`: a listing must be inside one of these areas.
  public var within: [GeoArea] = []
  /// `commute: {work: {by: transit, max: 30 min}}`: each place, mode and longest journey; all
  /// must hold. Judged on ``Listing/commute``, which the run's commute stage fills.
  public var commute: [CommuteLimit] = []
  /// What a listing that lacks a needed fact (or coordinates) becomes.
  public var missing: MissingFacts = .keep

  /// No fact filter.
  public init() {}

  /// The unit the search writes areas in (its `floor_area`, else `price_per_area`), for showing
  /// floor areas; nil when it writes none.
  public var shownAreaUnit: AreaUnit? {
    floorArea != nil ? floorAreaUnit : pricePerArea != nil ? pricePerAreaUnit : nil
  }

  /// Whether the search filters on no fact and no place.
  public var isEmpty: Bool {
    rooms == nil && bedrooms == nil && floorArea == nil && pricePerArea == nil && near.isEmpty
      && within.isEmpty && commute.isEmpty
  }
}

/// Inclusive bounds on a fact (rooms, m², price per m²); either may be absent. The same
/// bounds as a price range, compared the same way.
public typealias FactRange = PriceRange

/// A point the config names under `places:` (`work: [52.520, 13.405]`), and the unit its
/// distances are shown in.
public struct NamedPlace: Sendable, Equatable {
  /// The name (`work`).
  public var name: String
  /// Where it is.
  public var coordinates: Coordinates
  /// The unit distances from it are shown in: the one the search's `near` writes, else km.
  public var unit: DistanceUnit

  /// Creates a place.
  public init(name: String, coordinates: Coordinates, unit: DistanceUnit = .kilometres) {
    self.name = name
    self.coordinates = coordinates
    self.unit = unit
  }
}

/// One entry of `near`: a place and the farthest a listing may be from it.
public struct PlaceRadius: Sendable, Equatable {
  /// The place.
  public var place: NamedPlace
  /// How far from it a listing may be.
  public var radius: Distance

  /// Creates an entry.
  public init(place: NamedPlace, radius: Distance) {
    self.place = place
    self.radius = radius
  }
}

/// `near_mode:` with several places in `near`.
public enum NearMode: String, Sendable, CaseIterable {
  /// Near every place (the default).
  case all
  /// Near at least one place.
  case any
}

/// `missing:`: what becomes of a listing that lacks a fact a filter needs.
public enum MissingFacts: String, Sendable, CaseIterable {
  /// Kept: nothing says it is outside the bounds (the default, as for a listing without price).
  case keep
  /// Dropped.
  case drop
}
