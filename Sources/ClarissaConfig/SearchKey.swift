internal import ClarissaCore

/// One key a search (and `defaults`) may hold, declared once: ``all`` is the one list from
/// which the keys a search may hold and the suggestions for an unknown one, the reader's loop
/// over a search's keys, the JSON Schema's search and `defaults` properties (with their hover
/// texts) and docs/configuration.md's table of search keys are made. Adding a key is an entry
/// in ``all`` and the code that uses its value.
///
/// A site's own parameters are not here: its ``SiteParameter`` declarations carry them.
struct SearchKey: Sendable {
  /// How a key is read.
  enum Read: Sendable {
    /// From its value, when the search or `defaults` sets it.
    case field(@Sendable (ConfigReader, ConfigReader.Field, inout Draft) -> Void)
    /// Whether it is set or not (a site's default city, `filters` of `defaults` and the search's
    /// own together).
    case always(@Sendable (ConfigReader, inout Draft) -> Void)
    /// Before the others, by the search's own code: the key names the search or its site.
    case first
  }

  /// What a key's reader reads into: the search being made, and what it is read against.
  struct Draft {
    var search: Search
    /// The search's own keys and those of `defaults`.
    let scope: ConfigReader.SearchLookup
    /// The search's site; nil when it names an unknown one (its keys are still checked).
    let site: (any FeedSource)?
    /// The config read so far: city groups, places, the geocoder.
    let config: Config
  }

  /// The key's row of docs/configuration.md's table: its type, default and meaning, as
  /// Markdown.
  struct Doc: Sendable {
    let type: String
    let byDefault: String
    let meaning: String

    init(_ type: String, _ byDefault: String, _ meaning: String) {
      self.type = type
      self.byDefault = byDefault
      self.meaning = meaning
    }
  }

  /// The key as written.
  let name: String
  /// Its value's JSON Schema, without the description.
  let schema: @Sendable (SiteCatalog) -> [String: Any]
  /// Its description in the schema: what editors show on hover.
  let hover: String
  /// Its row of the docs table; nil when it shares the row of the key before it.
  let doc: Doc?
  /// How the reader reads it.
  let read: Read
  /// Why `defaults` cannot set it, for a key only a search itself may set.
  let ownOnly: String?
  /// Whether it shapes what the site is asked, which a pasted `url:` carries instead.
  let carriedByURL: Bool
  /// Exact words from other tools that mean this key.
  let synonyms: [String]
  /// Words people reach for, and what to write instead; suggested when close to the typed key.
  let hints: [String: String]

  init(
    _ name: String, schema: @escaping @Sendable (SiteCatalog) -> [String: Any], hover: String,
    doc: Doc?, ownOnly: String? = nil, carriedByURL: Bool = false, synonyms: [String] = [],
    hints: [String: String] = [:], read: Read
  ) {
    self.name = name
    self.schema = schema
    self.hover = hover
    self.doc = doc
    self.read = read
    self.ownOnly = ownOnly
    self.carriedByURL = carriedByURL
    self.synonyms = synonyms
    self.hints = hints
  }

  /// Every key a search may hold besides its site's parameters, in the docs table's order.
  static let all: [SearchKey] = asked + running + facts + signals

  /// The keys by name.
  static let named: [String: SearchKey] = Dictionary(
    all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

  /// The keys a search may hold.
  static let names = all.map(\.name)

  /// The keys `defaults` may hold.
  static let defaultsNames = all.filter { $0.ownOnly == nil }.map(\.name)

  /// The keys a pasted `url:` carries.
  static let carriedByURL = all.filter(\.carriedByURL).map(\.name)

  /// Exact words from other tools, and the key each means.
  static let synonyms: [String: String] = Dictionary(
    all.flatMap { key in key.synonyms.map { ($0, key.name) } },
    uniquingKeysWith: { first, _ in first })

  /// The keys' hints, and those of words that mean no key.
  static let hints: [String: String] = all.reduce(into: otherHints) { hints, key in
    hints.merge(key.hints) { first, _ in first }
  }

  /// Words people reach for that clarissa has no key for.
  private static let otherHints: [String: String] = [
    // No real Craigslist response in the project shows the pet filters' names: not offered.
    "pets_dog": "(clarissa has no pet filter: Craigslist's pet parameter is not confirmed)",
    "pets_cat": "(clarissa has no pet filter: Craigslist's pet parameter is not confirmed)",
  ]

  /// docs/configuration.md's table of search keys, one row per key (or per keys read
  /// together), then the site parameters' row.
  static var markdownTable: String {
    var rows: [(keys: [String], doc: Doc)] = []
    for key in all {
      if let doc = key.doc {
        rows.append(([key.name], doc))
      } else if !rows.isEmpty {
        rows[rows.count - 1].keys.append(key.name)
      }
    }
    let lines =
      ["| key | type | default | meaning |", "|---|---|---|---|"]
      + rows.map { row in
        let keys = row.keys.map { "`\($0)`" }.joined(separator: ", ")
        return "| \(keys) | \(row.doc.type) | \(row.doc.byDefault) | \(row.doc.meaning) |"
      }
      + ["| site parameters | | | see [Sites](#site-parameters) |"]
    return lines.joined(separator: "\n") + "\n"
  }
}
