package import ClarissaCore
package import Foundation
package import Markup

/// A site declared in YAML (`format: 1`): what `docs/adding-a-site.md` describes, read and
/// checked by ``DefinitionReader``. Every part keeps where it was written, so that a page that
/// no longer matches can be reported at the selector's line.
package struct SiteDefinition: Sendable {
  /// The file it was read from, as the user named it.
  package var file: String
  package var id: String
  package var name: String
  package var status: SiteStatus
  package var summary: String
  /// The site's language (ISO 639-1): relative dates (`de`, `en`) and decimal commas (every
  /// language but `en`).
  package var language: String
  /// The site's time zone, for dates without one.
  package var timeZone: TimeZone
  /// The currency of prices that name none.
  package var currency: String?
  /// The unit of floor areas that name none (`floor_area_unit:`; square metres when unsaid).
  package var floorAreaUnit: AreaUnit = .squareMetres
  package var politeness: Politeness
  package var parameters: [SiteParameter]
  package var cities: DeclaredNames
  package var categories: DeclaredNames?
  /// The requests of one search in one city, in order; each after the first runs once per
  /// answer of the one before, with what that one collected.
  package var steps: [RequestStep]
  /// How a search page pasted from the browser becomes the first request; nil for a site that
  /// takes none.
  package var searchURL: SearchURLSpec? = nil
  /// Whether each id is one listing (`ids: unique`): two ids are two listings, never folded
  /// as reposts of each other (a landlord's flats that share a campaign photo and a title).
  package var idsUnique = false
  /// The countries it serves (`countries:`, ISO 3166-1 alpha-2), for the catalogue.
  package var countries: [String] = []
  /// What kind of search it serves (`kind:`; a marketplace unless said).
  package var kind: SiteKind = .marketplace
  /// The bot wall it is known to answer with (`wall:`; none unless said).
  package var wall: SiteWall = .none
  /// The recorded answers it is checked against (`samples:`), for the catalogue.
  package var samples: [SiteSample] = []
}

/// Cities or categories: a table of known names with their columns, a pattern, or free text.
package struct DeclaredNames: Sendable {
  package enum Kind: String, Sendable, CaseIterable {
    case table, pattern, free, none
  }
  package var kind: Kind
  /// Name -> column -> value (`duesseldorf` -> `code` -> `l2068`). A table's entries.
  package var table: [String: [String: String]] = [:]
  /// The names in file order, for listings and suggestions.
  package var order: [String] = []
  /// What a name must look like (`pattern`), anchored.
  package var pattern: NSRegularExpression?
  package var patternText: String?
  /// The name used when a search gives none (categories only).
  package var defaultName: String?
}

/// One request of a search, and how to read its answer.
package struct RequestStep: Sendable {
  /// The name later steps use for what this one collects (`pins` -> `{pins.pk}`).
  package var id: String?
  package var method: String
  package var url: URLTemplate
  /// Query parameters added to the URL; one left out when its value is empty, repeated for a list.
  package var query: [(name: String, value: URLTemplate)]
  package var headers: [(name: String, value: URLTemplate)]
  package var body: URLTemplate?
  package var read: ReadSpec
}

/// How an answer is read.
package struct ReadSpec: Sendable {
  package enum Format: String, Sendable, CaseIterable {
    case html, json
  }
  package var format: Format
  /// For `html`: the elements whose text is JSON to read with JSON paths (`__NEXT_DATA__`, one
  /// JSON-LD script per listing): every match is a document, and the paths run in each.
  package var jsonIn: Selector?
  /// Tables a field looks its value up in by the item's key (`lookups:`).
  package var lookups: [LookupSpec] = []
  /// The items of the answer (one listing each). Nil for a step that only collects.
  package var items: Selector?
  package var fields: [FieldSpec]
  /// The site's other facts (`fields.facts`), each a field named by the fact it gives.
  package var facts: [FieldSpec] = []
  /// Values a later step's templates use, by name (`pk`).
  package var collect: [(name: String, selector: Selector)]
  /// A page that says "nothing found" (so an empty page is not taken for a changed one).
  package var empty: Selector?
  /// A page that says the client is blocked.
  package var blocked: Selector?
  /// Where `read:` was written.
  package var location: SourceLocation
}

/// Where a listing field comes from.
package struct FieldSpec: Sendable {
  package enum Name: String, Sendable, CaseIterable {
    case id, url, title, description, price, currency, posted, location
    /// The part of town or district the listing is in (a place, never floor space); the
    /// listing's `area`. Once written `area`: still read, with a warning.
    case district
    case latitude, longitude, images, category
    /// Rooms, bedrooms and bathrooms: counts, decimal ("2,5 Zi." is 2.5).
    case rooms, bedrooms, bathrooms
    /// Floor area with its unit ("50 m²", "850ft2"); a bare number is in `floor_area_unit`.
    case floorArea = "floor_area"
    /// A price per unit of floor area ("12,50 €/m²"), when the site gives one: kept as the fact
    /// `price per m²`; the listing's price made from it when the site gives none.
    case pricePerArea = "price_per_area"
    case postcode, address
    /// When the seller's account was made (a date, read as `posted` is): the listing's
    /// `sellerSince`, which the warning sign `new-seller` reads.
    case sellerSince = "seller_since"
    /// The site's other facts: a mapping of a fact's name to a field (read apart, in
    /// ``ReadSpec/facts``).
    case facts
  }
  /// The field name `district` had first; read with a deprecation warning at its position.
  package static let deprecatedNames = ["area": Name.district]
  package var name: Name
  /// For a fact (`name` is `.facts`): the fact's name as the definition writes it ("Etage").
  package var fact: String? = nil
  /// Nil for a constant (`value:`).
  package var selector: Selector?
  package var value: String?
  package var filters: [FieldFilter]
  /// Whether finding nothing in every item is expected (no warning).
  package var optional: Bool
  package var location: SourceLocation
  /// For a field read from a lookup table: `selector` is a JSONPath in the table's entry.
  package var lookup: FieldLookup? = nil
}

/// A table of JSON entries by key, somewhere in the answer (`lookups: {NAME: ...}`): the
/// coordinates a page keeps apart from its cards, in a GeoJSON script keyed by listing id.
package struct LookupSpec: Sendable {
  package var name: String
  /// For an HTML answer: the element whose text is the JSON (nil: the answer's own JSON).
  package var jsonIn: Selector?
  /// The entries, and each entry's key relative to it.
  package var entries: Selector
  package var key: Selector
  package var location: SourceLocation
}

/// Where a field looks its value up: the table, and the field whose value is the key.
package struct FieldLookup: Sendable {
  package var table: String
  package var by: FieldSpec.Name
  package var location: SourceLocation
  package var byLocation: SourceLocation
}

/// A path into an answer: XPath 1.0 for HTML, JSONPath (RFC 9535) for JSON.
package struct Selector: Sendable {
  package enum Compiled: Sendable {
    case xpath(XPathExpression)
    case json(JSONPath)
  }
  package var compiled: Compiled
  package var text: String
  package var location: SourceLocation
}
