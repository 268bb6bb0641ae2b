internal import Foundation

/// A site's search page as a person pasted it from the browser (`url:` in a search): its host,
/// its path and its query as written, read once. Sites make their request from these parts, so
/// what the pasted URL carries (percent-encoding included) reaches the site unchanged.
public struct SearchURL: Sendable, Equatable {
  /// One `name=value` of the query: the name decoded (for comparing), the pair as written.
  public struct Pair: Sendable, Equatable {
    /// The name, percent-decoded.
    public var name: String
    /// `name=value` exactly as pasted.
    public var written: String

    /// Creates a pair from its decoded name and its text as written.
    public init(name: String, written: String) {
      self.name = name
      self.written = written
    }
  }

  /// The URL as written.
  public let text: String
  /// The host, lower case, without a port.
  public let host: String
  /// The path as written (percent-encoded as pasted), `/` when empty.
  public let path: String
  /// The query's pairs in order; a fragment (`#search=1~gallery`) is dropped.
  public let query: [Pair]

  /// The parts of `text`, or nil when it is not an absolute http(s) URL with a host.
  public init?(_ text: String) {
    guard let components = URLComponents(string: URLText.encodingIllegal(text)),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host?.lowercased(), !host.isEmpty
    else { return nil }
    self.text = text
    self.host = host
    let path = components.percentEncodedPath
    self.path = path.isEmpty ? "/" : path
    self.query = (components.percentEncodedQuery ?? "").split(separator: "&").map { item in
      let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
      let decoded = name.replacingOccurrences(of: "+", with: " ")
      return Pair(name: decoded.removingPercentEncoding ?? decoded, written: String(item))
    }
  }

  /// The pasted pairs called `name`.
  public func values(_ name: String) -> [String] {
    query.filter { $0.name == name }.map { pair in
      let value = pair.written.split(separator: "=", maxSplits: 1).dropFirst().first ?? ""
      let spaced = value.replacingOccurrences(of: "+", with: " ")
      return spaced.removingPercentEncoding ?? spaced
    }
  }

  /// Whether the address reads like a feed rather than a search page (`.rss`, `/feed`,
  /// `format=rss`), for the hint to use `site: feed`.
  public var looksLikeFeed: Bool {
    let lowered = path.lowercased()
    let suffixes = [".rss", ".xml", ".atom", ".rdf", "/feed", "/feed/", "/rss", "/rss/", "/atom"]
    return suffixes.contains { lowered.hasSuffix($0) } || lowered.contains("/feed/")
      || lowered.contains("/feeds/")
      || values("format").contains { ["rss", "atom", "xml", "json"].contains($0.lowercased()) }
  }
}

/// What a site makes of a pasted URL on one of its hosts.
public enum SearchURLReading: Sendable, Equatable {
  /// A search the site reads: the city (or area) and category it names, when it names them,
  /// as the search's `cities` and `category` (what reports and housing checks see).
  case search(city: String?, category: String?)
  /// A page of the site that is not a search it reads, and why (shown with the URL).
  case refused(String)
}

/// A pasted URL and the request a site makes of it, documented by the site and run as a test.
public struct SearchURLExample: Sendable, Equatable {
  /// The URL as pasted.
  public var url: String
  /// The URL of the first request the site makes for it (the site's default mode).
  public var request: String

  /// Creates an example.
  public init(url: String, request: String) {
    self.url = url
    self.request = request
  }
}
