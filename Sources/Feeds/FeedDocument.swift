/// The formats ``FeedParser`` reads.
public enum FeedFormat: String, Sendable, Codable {
  case rss2 = "RSS 2.0"
  case rss09 = "RSS 0.9x"
  case rss1 = "RSS 1.0"
  case atom1 = "Atom 1.0"
  case atom03 = "Atom 0.3"
  case jsonFeed = "JSON Feed"
}

/// What parsing a feed produced: its items, and the problems it recovered from.
public struct FeedDocument: Sendable, Codable {
  /// The feed's format.
  public var format: FeedFormat
  /// The feed's own title.
  public var title: String
  /// The feed's web page.
  public var link: String?
  /// Every item read, in document order.
  public var items: [FeedItem]
  /// Problems that did not stop the feed being read (a truncated end, a bad item, a repair).
  public var problems: [String]
}

/// Why a document is not a feed at all.
public struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, lower case.
  public var message: String

  /// Creates an error.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
