public import Foundation
public import Markup

/// One entry of any feed format, in one model.
public struct FeedItem: Sendable, Equatable, Codable {
  /// Where the id came from, in order of preference.
  public enum IDSource: String, Sendable, Codable {
    case guid, link, hash
  }

  /// Stable id: the guid (RSS `guid`, Atom `id`, RDF `rdf:about`, JSON Feed `id`), else the
  /// link, else a hash of the content.
  public var id: String
  /// Which of the three the id is.
  public var idSource: IDSource
  /// Plain-text title.
  public var title: String
  /// The item's web page, absolute.
  public var link: String?
  /// When it was published.
  public var published: Date?
  /// When it was last updated.
  public var updated: Date?
  /// Plain-text description (from the summary, description or content); empty when the parse
  /// deferred it (``TextConversion/deferred``): then ``html`` holds it.
  public var text: String
  /// The description or content as the feed gave it (HTML), when it was HTML.
  public var html: String?
  /// Media attached (images, audio).
  public var enclosures: [Enclosure]
  /// Category names or tags.
  public var categories: [String]
  /// Author's name (or address when no name is given).
  public var author: String?
  /// The item's full content as the feed gave it (Atom `content`, `content:encoded`,
  /// `xhtml:body`), when it also has a summary (which is then ``text``).
  public var content: String?
  /// What the item held, keyed to its feed, when the reader was given items it may pass over
  /// (``ItemPass``): what a later read that knows it passes it over by.
  public var digest: XMLDigest?

  /// Creates an item.
  public init(
    id: String, idSource: IDSource, title: String, link: String? = nil, published: Date? = nil,
    updated: Date? = nil, text: String = "", html: String? = nil, enclosures: [Enclosure] = [],
    categories: [String] = [], author: String? = nil, content: String? = nil,
    digest: XMLDigest? = nil
  ) {
    self.content = content
    self.digest = digest
    self.id = id
    self.idSource = idSource
    self.title = title
    self.link = link
    self.published = published
    self.updated = updated
    self.text = text
    self.html = html
    self.enclosures = enclosures
    self.categories = categories
    self.author = author
  }
}

/// A file attached to an item.
public struct Enclosure: Sendable, Equatable, Codable {
  /// Absolute URL.
  public var url: String
  /// MIME type, when given.
  public var type: String?
  /// Size in bytes, when given.
  public var length: Int?

  /// Creates an enclosure.
  public init(url: String, type: String? = nil, length: Int? = nil) {
    self.url = url
    self.type = type
    self.length = length
  }
}
