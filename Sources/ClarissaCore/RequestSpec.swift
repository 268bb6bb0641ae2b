import Foundation

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
