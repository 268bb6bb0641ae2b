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
}
