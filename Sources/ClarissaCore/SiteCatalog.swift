/// The registered sites, looked up by id. Only the executable and tests build one (from
/// `Sites/Registry.swift`) and hand it to the config reader and the engine.
public struct SiteCatalog: Sendable {
  /// Every site, in the order they are listed.
  public let all: [any FeedSource]

  /// Creates a catalog; ids must be unique.
  public init(_ sites: [any FeedSource]) {
    self.all = sites
  }

  /// The site with this id.
  public func site(_ id: String) -> (any FeedSource)? {
    all.first { $0.id == id }
  }

  /// Every site id.
  public var ids: [String] { all.map(\.id) }

  /// "sites: a, b, c", or past a dozen "42 sites: `clarissa sites` lists them" (a message
  /// that names them all would hide what it says).
  public static func named(_ ids: [String], _ what: String) -> String {
    ids.count <= 12
      ? "\(what): " + ids.joined(separator: ", ")
      : "\(ids.count) \(what): `clarissa sites` lists them"
  }

  /// Where the sites were looked for beyond those built in (a user's `sites/` folder, and
  /// whether it is there), for the message about a site that is in none of them.
  public var searched: [String] = []

  /// The message for a site id that is not here: the closest ids, every id, and the places
  /// looked in.
  public func unknownSite(_ id: String) -> String {
    let places = ["the sites built into clarissa"] + searched
    return "unknown site '\(id)'\(Suggestions.hint(for: id, in: ids)) ("
      + Self.named(ids, "sites") + "; looked in " + places.joined(separator: " and ") + ")"
  }
}
