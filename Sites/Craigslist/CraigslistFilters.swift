internal import ClarissaCore
internal import SiteFormat

/// Craigslist's own search filters, as declared data: each YAML key, its type, and the query
/// parameter (and value codes) Craigslist's search page and sapi use for it.
///
/// Every query name and code here is copied from the `filters` list of a real sapi response
/// (Fixtures/craigslist/littlerock-rea-sapi-1.json for housing, sfbay-sss-sapi-1.json for sale).
/// Pets (`pets_cat`, `pets_dog`) are not in either response, so they are not offered.
struct CraigslistFilter: Sendable {
  /// Which searches a filter narrows.
  enum Section: String, Sendable {
    case housing, forSale = "for sale"
  }

  /// The YAML key (snake_case, like every key).
  let name: String
  /// Craigslist's query parameter.
  let query: String
  /// What the value may be.
  let kind: SiteParameter.Kind
  /// Craigslist's code for each word of a choice; `true` flags are sent as `1`.
  let codes: [String: String]
  let section: Section
  let summary: String
  let example: String

  init(
    _ name: String, _ query: String, _ kind: SiteParameter.Kind, _ section: Section,
    _ summary: String, example: String, codes: [(String, String)] = []
  ) {
    self.name = name
    self.query = query
    self.kind = codes.isEmpty ? kind : .choices(codes.map(\.0))
    self.codes = Dictionary(codes, uniquingKeysWith: { first, _ in first })
    self.section = section
    self.summary = summary
    self.example = example
  }

  /// The declaration `validate`, `sites` and the schema read.
  var parameter: SiteParameter {
    SiteParameter(name, kind, summary: "\(section.rawValue): \(summary)", example: example)
  }

  /// The query pairs for a search's value; repeated pairs for several words.
  func pairs(_ value: ParameterValue) -> [(String, String)] {
    switch value {
    case .bool(let on): on ? [(query, "1")] : []
    case .integer(let number): [(query, String(number))]
    case .text(let text): [(query, codes[text] ?? text)]
    case .words(let words): words.map { (query, codes[$0] ?? $0) }
    case .urls: []
    }
  }

  static let all: [CraigslistFilter] = housing + forSale

  static let housing: [CraigslistFilter] = [
    .init(
      "min_bedrooms", "min_bedrooms", .integer(0...20), .housing, "at least this many bedrooms",
      example: "2"),
    .init(
      "max_bedrooms", "max_bedrooms", .integer(0...20), .housing, "at most this many bedrooms",
      example: "3"),
    .init(
      "min_bathrooms", "min_bathrooms", .integer(0...20), .housing,
      "at least this many bathrooms", example: "1"),
    .init(
      "max_bathrooms", "max_bathrooms", .integer(0...20), .housing,
      "at most this many bathrooms", example: "2"),
    .init(
      "min_sqft", "minSqft", .integer(0...1_000_000), .housing,
      "at least this many square feet (the area's unit)", example: "600"),
    .init(
      "max_sqft", "maxSqft", .integer(0...1_000_000), .housing,
      "at most this many square feet (the area's unit)", example: "1200"),
    .init(
      "housing_type", "housing_type", .text, .housing, "kinds of home",
      example: "[apartment, loft]",
      codes: [
        ("apartment", "1"), ("condo", "2"), ("cottage", "3"), ("duplex", "4"), ("flat", "5"),
        ("house", "6"), ("in-law", "7"), ("loft", "8"), ("townhouse", "9"),
        ("manufactured", "10"), ("assisted-living", "11"), ("land", "12"),
      ]),
    .init(
      "laundry", "laundry", .text, .housing, "laundry (in-unit is Craigslist's 'w/d in unit')",
      example: "[in-unit, in-building]",
      codes: [
        ("in-unit", "1"), ("hookups", "4"), ("in-building", "2"), ("on-site", "3"),
        ("none", "5"),
      ]),
    .init(
      "parking", "parking", .text, .housing, "kinds of parking",
      example: "[attached-garage, off-street]",
      codes: [
        ("carport", "1"), ("attached-garage", "2"), ("detached-garage", "3"),
        ("off-street", "4"), ("street", "5"), ("valet", "6"), ("none", "7"),
      ]),
    .init(
      "availability", "availabilityMode", .text, .housing,
      "when it is available (any leaves it out)", example: "within-30-days",
      codes: [("within-30-days", "1"), ("beyond-30-days", "2")]),
    .init("furnished", "is_furnished", .bool, .housing, "only furnished homes", example: "true"),
    .init("no_smoking", "no_smoking", .bool, .housing, "only no-smoking homes", example: "true"),
    .init(
      "wheelchair_access", "wheelchaccess", .bool, .housing, "only wheelchair-accessible homes",
      example: "true"),
    .init(
      "air_conditioning", "airconditioning", .bool, .housing, "only homes with air conditioning",
      example: "true"),
    .init(
      "ev_charging", "ev_charging", .bool, .housing, "only homes with EV charging", example: "true"),
  ]

  static let forSale: [CraigslistFilter] = [
    .init(
      "condition", "condition", .text, .forSale, "the item's condition", example: "[new, like-new]",
      codes: [
        ("new", "10"), ("like-new", "20"), ("excellent", "30"), ("good", "40"), ("fair", "50"),
        ("salvage", "60"),
      ]),
    .init(
      "make_model", "auto_make_model", .text, .forSale, "make and model (vehicles)",
      example: "honda civic"),
    .init(
      "crypto_ok", "crypto_currency_ok", .bool, .forSale, "only sellers who take cryptocurrency",
      example: "true"),
    .init(
      "delivery", "delivery_available", .bool, .forSale, "only listings with delivery available",
      example: "true"),
  ]
}

/// The search's own fact filters (`bedrooms`, `floor_area`) sent as Craigslist's housing
/// parameters, so that its answer holds fewer rows to drop; clarissa still filters every
/// listing itself (``FactFilters``), and a listing without the fact is Craigslist's to drop.
extension CraigslistFilter {
  /// The pairs for `search`: on housing categories only, and never beside the same parameter
  /// written as a site parameter (`min_bedrooms: 2` wins). Bounds are widened to whole numbers
  /// (at least 1.5 bedrooms asks for at least 1). Square feet only where every city is in the
  /// US, where Craigslist counts areas in square feet.
  static func factPairs(_ search: Search) -> [(String, String)] {
    guard let category = search.category, CraigslistSite.section(of: category) == .housing else {
      return []
    }
    var pairs: [(String, String)] = []
    func add(_ name: String, _ value: Double?, rounded rule: FloatingPointRoundingRule) {
      guard let value, search.parameters[name] == nil,
        let filter = all.first(where: { $0.name == name }),
        case .integer(let range) = filter.kind
      else { return }
      // Square feet worked out from square metres land a hair off the whole number written.
      let whole = ((value * 1e6).rounded() / 1e6).rounded(rule)
      guard whole >= Double(range.lowerBound), whole <= Double(range.upperBound) else { return }
      pairs.append((filter.query, String(Int(whole))))
    }
    let bedrooms = search.facts.bedrooms
    add("min_bedrooms", bedrooms?.min, rounded: .down)
    add("max_bedrooms", bedrooms?.max, rounded: .up)
    let inUS =
      !search.cities.isEmpty
      && search.cities.allSatisfy { CraigslistPlace($0.name)?.area.country == "US" }
    if inUS, let area = search.facts.floorArea {
      let squareFoot = AreaUnit.squareFeet.squareMetres
      add("min_sqft", area.min.map { $0 / squareFoot }, rounded: .down)
      add("max_sqft", area.max.map { $0 / squareFoot }, rounded: .up)
    }
    return pairs
  }
}
