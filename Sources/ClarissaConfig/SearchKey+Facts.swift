internal import ClarissaCore

/// The keys that bound what a listing describes and where it is.
extension SearchKey {
  static let facts: [SearchKey] = [
    SearchKey(
      "rooms", schema: { _ in numberBounds },
      hover:
        "rooms {min, max} (decimals: 2.5); a listing without rooms is kept unless missing: drop",
      doc: Doc(
        "`{min, max}`", "none",
        "bounds on what the listing says (decimals: `2.5`); see "
          + "[Facts and places](#facts-and-places)"),
      hints: [
        "min_rooms": "(write 'rooms: {min: ...}')", "max_rooms": "(write 'rooms: {max: ...}')",
      ],
      read: .field { reader, field, draft in draft.search.facts.rooms = reader.readCount(field) }),
    SearchKey(
      "bedrooms", schema: { _ in numberBounds },
      hover: "bedrooms {min, max}; a listing without them is kept unless missing: drop", doc: nil,
      synonyms: ["beds"],
      read: .field { reader, field, draft in draft.search.facts.bedrooms = reader.readCount(field) }
    ),
    SearchKey(
      "floor_area",
      schema: { _ in
        let area = "^ *[0-9]+(\\.[0-9]+)? *(m2|m²|ft2|ft²) *$"
        return ConfigSchema.bounds(["type": "string", "pattern": area], prefix: "floor_area")
      },
      hover: "floor area {min, max}, each with its unit: 50 m2 or 540 ft2 (also m², ft²)",
      doc: Doc("`{min, max}` with units", "none", "`{min: 50 m2}`, `{max: 1300 ft2}`"),
      synonyms: ["size", "sqm", "area_size"],
      hints: [
        "min_size": "(write 'floor_area: {min: ... m2}')",
        "max_size": "(write 'floor_area: {max: ... m2}')",
      ],
      read: .field { reader, field, draft in
        if let (range, unit) = reader.readFloorArea(field) {
          draft.search.facts.floorArea = range
          draft.search.facts.floorAreaUnit = unit
        }
      }),
    SearchKey(
      "price_per_area",
      schema: { _ in
        var object = numberBounds
        var properties = object["properties"] as? [String: Any] ?? [:]
        properties["per"] = ConfigSchema.describe(
          ["enum": Array(ConfigReader.areaUnits.keys).sorted()], "price_per_area.per", "per")
        object["properties"] = properties
        return object
      },
      hover:
        "price per unit of floor area {min, max} in the listing's currency, per m2 unless "
        + "'per: ft2' says",
      doc: Doc("`{min, max, per}`", "none", "price per m² (`per: ft2` for per square foot)"),
      hints: ["max_price_per_square": "(write 'price_per_area: {max: ...}')"],
      read: .field { reader, field, draft in
        if let (range, unit) = reader.readPricePerArea(field) {
          draft.search.facts.pricePerArea = range
          draft.search.facts.pricePerAreaUnit = unit
        }
      }),
    SearchKey(
      "near",
      schema: { _ in
        let units = DistanceUnit.allCases.map(\.rawValue).joined(separator: "|")
        let distance = "^ *[0-9]+(\\.[0-9]+)? *(\(units)) *$"
        return [
          "type": "object", "minProperties": 1,
          "additionalProperties": ["type": "string", "pattern": distance],
        ]
      },
      hover:
        "how far from named places a listing may be: {work: 3 km, station: 500 m} (km, m, mi)",
      doc: Doc(
        "`{place: distance}`, `all` or `any`", "none, `all`",
        "how far from named places a listing may be"),
      synonyms: ["distance", "radius"],
      read: .field { reader, field, draft in
        draft.search.facts.near = reader.readNear(field, places: draft.config.places)
      }),
    SearchKey(
      "near_mode", schema: { _ in ConfigSchema.choice(NearMode.self) },
      hover: "with several places in 'near': all (default) or any of them", doc: nil,
      read: .field { reader, field, draft in
        draft.search.facts.nearMode = reader.choice(field.node, field.what, NearMode.self) ?? .all
      }),
    SearchKey(
      "within", schema: { _ in ConfigSchema.textList },
      hover:
        "GeoJSON files (Polygon, MultiPolygon, Feature, FeatureCollection; relative to the config's "
        + "folder): a listing must be inside one of them",
      doc: Doc(
        "file or list of files", "none", "GeoJSON areas a listing must be inside (one of them)"),
      synonyms: ["polygon", "geojson"],
      read: .field { reader, field, draft in
        draft.search.facts.within = reader.stringList(field.node, field.what).compactMap {
          path, node in reader.area(path, at: node)
        }
      }),
    SearchKey(
      "commute", schema: { _ in ConfigSchema.commute },
      hover:
        "the longest journey to named places by a mode with an engine in 'routing': "
        + "{work: {by: transit, max: 30 min}}; all must hold",
      doc: Doc(
        "`{place: {by, max}}`", "none",
        "the longest travel time to named places; see [Travel time](#travel-time)"),
      synonyms: ["travel_time", "commute_time", "isochrone"],
      read: .field { reader, field, draft in
        draft.search.facts.commute = reader.readCommute(
          field, places: draft.config.places, routing: draft.config.routing)
      }),
    SearchKey(
      "missing", schema: { _ in ConfigSchema.choice(MissingFacts.self) },
      hover:
        "keep (default): a listing lacking a fact a filter needs (rooms, floor area, coordinates) "
        + "is kept; drop: it is dropped",
      doc: Doc(
        "`keep` or `drop`", "`keep`", "what becomes of a listing lacking a fact these filters need"),
      read: .field { reader, field, draft in
        draft.search.facts.missing =
          reader.choice(field.node, field.what, MissingFacts.self) ?? .keep
      }),
  ]

  /// `rooms`, `bedrooms`, `price_per_area`: `{min, max}`, each a number at least zero.
  private static var numberBounds: [String: Any] {
    ConfigSchema.bounds(["type": "number", "minimum": 0], prefix: "bounds")
  }
}
