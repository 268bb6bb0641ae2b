public import Foundation

/// One request a site wants made for a search in a city; the fetcher makes it, the site reads
/// the answer. Everything the site needs to read the answer travels in `context`, so reading is
/// a pure function of the response.
public struct RequestSpec: Sendable, Hashable, Codable {
  /// The absolute URL.
  public var url: String
  /// Extra request headers (`Accept`).
  public var headers: [String: String]
  /// How the answer is to be read (`api`, `html`, `rss`, `feed`).
  public var mode: String
  /// The city this request covers, as written in the config (nil for sites without cities).
  public var city: String?
  /// Site-specific facts for reading the answer (`areaID`, `includeNearby`, `currency`).
  public var context: [String: String]
  /// Whether `If-None-Match` / `If-Modified-Since` may be sent.
  public var allowsConditionalGET: Bool
  /// `GET` for sources; `POST` for notifications.
  public var method: String
  /// The request body (notifications).
  public var body: [UInt8]?
  /// Whether a request that started on a public address may be led (by a redirect, or a name
  /// that resolves there) to a loopback, link-local or private one; a search's
  /// `allow_private_redirects`. A request that starts on a private address may go anywhere.
  public var allowsPrivateRedirects: Bool

  /// Creates a request.
  public init(
    url: String, headers: [String: String] = [:], mode: String, city: String? = nil,
    context: [String: String] = [:], allowsConditionalGET: Bool = true, method: String = "GET",
    body: [UInt8]? = nil, allowsPrivateRedirects: Bool = false
  ) {
    self.url = url
    self.headers = headers
    self.mode = mode
    self.city = city
    self.context = context
    self.allowsConditionalGET = allowsConditionalGET
    self.method = method
    self.body = body
    self.allowsPrivateRedirects = allowsPrivateRedirects
  }
}

/// A response as the fetcher (or a recording) delivers it to a site.
public struct SourceResponse: Sendable {
  /// What was asked.
  public var request: RequestSpec
  /// HTTP status.
  public var status: Int
  /// Response headers, names lower case.
  public var headers: [String: String]
  /// The body, decompressed.
  public var body: [UInt8]
  /// The URL after redirects.
  public var finalURL: String
  /// When the answer came (the run's clock), for dates a page writes relative to now
  /// ("vor 3 Std."); nil when unknown (a saved file).
  public var receivedAt: Date?
  /// What the search's last answer held, for a site that passes over what it read before;
  /// nil: every item is read.
  public var known: KnownItems?

  /// Creates a response.
  public init(
    request: RequestSpec, status: Int = 200, headers: [String: String] = [:], body: [UInt8],
    finalURL: String? = nil, receivedAt: Date? = nil
  ) {
    self.receivedAt = receivedAt
    self.request = request
    self.status = status
    self.headers = headers
    self.body = body
    self.finalURL = finalURL ?? request.url
  }
}

/// What a site read from one response: listings, and what it recovered from on the way.
public struct ListingBatch: Sendable {
  /// The listings, in the site's order.
  public var listings: [Listing]
  /// Repairs and skipped rows, for the report (never fatal).
  public var notes: [String]
  /// Requests to make next, whose answers hold the listings (a site that answers a search with
  /// ids first, then the listings of those ids). Their listings belong to this request's source.
  public var followUps: [RequestSpec]
  /// The ids of listings passed over unread, in the site's order: each was read from an item
  /// held, unchanged, by the search's last answer (``SourceResponse/known``).
  public var unchanged: [String] = []
  /// Per listing id, the digest of the item it was read from (``KnownItems``), for a site that
  /// passes over what it read before.
  public var digests: [String: String] = [:]

  /// Creates a batch.
  public init(listings: [Listing], notes: [String] = [], followUps: [RequestSpec] = []) {
    self.listings = listings
    self.notes = notes
    self.followUps = followUps
  }
}

/// Why a site could not read a response: the message names what was wrong.
public struct SiteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Whether the site refused the client (a block page) rather than sending a broken answer.
  public var isBlock: Bool
  /// What is wrong, lower case.
  public var message: String

  /// Creates an error.
  public init(_ message: String, isBlock: Bool = false) {
    self.message = message
    self.isBlock = isBlock
  }

  public var description: String { message }
}

/// A search's last answer as a site that can pass over what it read before sees it
/// (docs/performance.md, "Unchanged items"): per digest of an item that answer was read from
/// (``ListingBatch/digests``), the id of its listing. Only listings whose reading waits for
/// nothing, unchanged since, are in it: the store gives the rest no digest.
public struct KnownItems: Sendable, Equatable {
  /// Listing ids by digest.
  public var ids: [String: String]
  /// What the engine keys digests to besides the site's own (the limits listings are cut to).
  public var salt: String

  /// Creates a table.
  public init(ids: [String: String], salt: String) {
    self.ids = ids
    self.salt = salt
  }
}
