import ClarissaCore
import Foundation
import Markup

/// A site declared in YAML (`format: 1`): what `docs/adding-a-site.md` describes, read and
/// checked by ``DefinitionReader``. Every part keeps where it was written, so that a page that
/// no longer matches can be reported at the selector's line.
struct SiteDefinition: Sendable {
  /// The file it was read from, as the user named it.
  var file: String
  var id: String
  var name: String
  var status: SiteStatus
  var summary: String
  /// The site's language for relative dates (`de`, `en`).
  var language: String
  /// The site's time zone, for dates without one.
  var timeZone: TimeZone
  /// The currency of prices that name none.
  var currency: String?
  var politeness: Politeness
  var parameters: [SiteParameter]
  var cities: DeclaredNames
  var categories: DeclaredNames?
  /// The requests of one search in one city, in order; each after the first runs once per
  /// answer of the one before, with what that one collected.
  var steps: [RequestStep]
  /// How a search page pasted from the browser becomes the first request; nil for a site that
  /// takes none.
  var searchURL: SearchURLSpec? = nil
}

/// Cities or categories: a table of known names with their columns, a pattern, or free text.
struct DeclaredNames: Sendable {
  enum Kind: String, Sendable, CaseIterable {
    case table, pattern, free, none
  }
  var kind: Kind
  /// Name -> column -> value (`duesseldorf` -> `code` -> `l2068`). A table's entries.
  var table: [String: [String: String]] = [:]
  /// The names in file order, for listings and suggestions.
  var order: [String] = []
  /// What a name must look like (`pattern`), anchored.
  var pattern: NSRegularExpression?
  var patternText: String?
  /// The name used when a search gives none (categories only).
  var defaultName: String?
}

/// One request of a search, and how to read its answer.
struct RequestStep: Sendable {
  /// The name later steps use for what this one collects (`pins` -> `{pins.pk}`).
  var id: String?
  var method: String
  var url: URLTemplate
  /// Query parameters added to the URL; one left out when its value is empty, repeated for a list.
  var query: [(name: String, value: URLTemplate)]
  var headers: [(name: String, value: URLTemplate)]
  var body: URLTemplate?
  var read: ReadSpec
}

/// How an answer is read.
struct ReadSpec: Sendable {
  enum Format: String, Sendable, CaseIterable {
    case html, json
  }
  var format: Format
  /// For `html`: the element whose text is JSON to read with JSON paths (`__NEXT_DATA__`).
  var jsonIn: Selector?
  /// The items of the answer (one listing each). Nil for a step that only collects.
  var items: Selector?
  var fields: [FieldSpec]
  /// Values a later step's templates use, by name (`pk`).
  var collect: [(name: String, selector: Selector)]
  /// A page that says "nothing found" (so an empty page is not taken for a changed one).
  var empty: Selector?
  /// A page that says the client is blocked.
  var blocked: Selector?
  /// Where `read:` was written.
  var location: SourceLocation
}

/// Where a listing field comes from.
struct FieldSpec: Sendable {
  enum Name: String, Sendable, CaseIterable {
    case id, url, title, description, price, currency, posted, location
    /// The part of town or district the listing is in (a place, never floor space); the
    /// listing's `area`. Once written `area`: still read, with a warning.
    case district
    case latitude, longitude, images, category
  }
  /// The field name `district` had first; read with a deprecation warning at its position.
  static let deprecatedNames = ["area": Name.district]
  var name: Name
  /// Nil for a constant (`value:`).
  var selector: Selector?
  var value: String?
  var filters: [FieldFilter]
  /// Whether finding nothing in every item is expected (no warning).
  var optional: Bool
  var location: SourceLocation
}

/// A path into an answer: XPath 1.0 for HTML, JSONPath (RFC 9535) for JSON.
struct Selector: @unchecked Sendable {
  // JSONPath and XPathExpression are immutable once compiled.
  enum Compiled {
    case xpath(XPathExpression)
    case json(JSONPath)
  }
  var compiled: Compiled
  var text: String
  var location: SourceLocation
}
