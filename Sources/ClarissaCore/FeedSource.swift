/// A site adapter: what it is called, how trustworthy it is, what it accepts and how gently it
/// must be asked. Sites are pure: no network, clock or files.
public protocol FeedSource: Sendable {
  /// The name a search writes in `site:`, lower case (`craigslist`).
  var id: String { get }
  /// The name shown to people (`Craigslist`).
  var displayName: String { get }
  /// Whether the site works today.
  var status: SiteStatus { get }
  /// One sentence on what the adapter reads.
  var summary: String { get }
  /// The countries it serves, as ISO 3166-1 alpha-2 codes (`DE`, `CH`); empty when any.
  var countries: [String] { get }
  /// What kind of search it serves.
  var kind: SiteKind { get }
  /// The bot wall it is known to answer plain clients with, `.none` when none is known.
  var wall: SiteWall { get }
  /// The recorded answers it is checked against, with the listing facts each carries
  /// (`samples:`), for the catalogue.
  var samples: [SiteSample] { get }
  /// Site-specific keys a search may set, beyond the common ones.
  var parameters: [SiteParameter] { get }
  /// How gently the site must be asked.
  var politeness: Politeness { get }
  /// What a search's `cities:` entries mean for this site.
  var cities: CityRule { get }
  /// The city a search that names none searches (a nationwide site's whole country), or nil
  /// when a search must name its cities.
  var defaultCity: String? { get }

  /// Checks one entry of `cities:` (`sfbay`, `sfbay/eby`).
  func checkCity(_ name: String) -> NameCheck
  /// Checks `category:`.
  func checkCategory(_ name: String) -> NameCheck
  /// Why a parameter given with `category` does nothing (a housing filter on a for-sale
  /// category), or nil.
  func caution(parameter: String, category: String?) -> String?

  /// The requests one search needs in one city (`city` is nil for sites without cities).
  func requests(for search: Search, in city: CityRef?) -> [RequestSpec]
  /// The listings in one response; throws ``SiteError`` when the response holds none by
  /// mistake (an error answer, a block page, a document of the wrong kind).
  func listings(from response: SourceResponse) throws -> ListingBatch
  /// Whether ``listings(from:)`` passes over the items of the search's last answer that are
  /// unchanged (``SourceResponse/known``, ``ListingBatch/unchanged``); false by default.
  var passesUnchangedItems: Bool { get }
  /// Whether the site gives each listing one id that it keeps (a site definition's
  /// `ids: unique`): two ids are then two listings, and the run never folds one as the
  /// other's repost; false by default.
  var idsUnique: Bool { get }
  /// The currency of its prices when it is always one (`EUR`), for the config's checks.
  var currency: String? { get }
  /// Whether its listings can carry coordinates; false for a site that never gives them.
  var givesCoordinates: Bool { get }
  /// Where a city of its searches is, when the site's tables say (for the config's checks).
  func coordinates(of city: CityRef) -> Coordinates?
  /// Modes `clarissa inspect --mode` accepts, the default first.
  var modes: [String] { get }
  /// The site's own list of cities whose name or description contains `filter` (all when nil),
  /// for `clarissa sites NAME --cities`; empty for sites without such a list.
  func knownCities(matching filter: String?) -> [KnownCity]
  /// The site's category codes whose code or meaning contains `filter` (all when nil), for
  /// `clarissa sites NAME --categories`; empty for sites without a category list.
  func knownCategories(matching filter: String?) -> [KnownCity]
  /// What a category code means (`bia` -> `all bicycles`), for hints; nil when unknown.
  func categoryMeaning(_ code: String) -> String?
  /// What the site makes of a search page's URL pasted from the browser (`url:` in a search);
  /// nil when the URL is not on the site's hosts. Its requests then come from that URL.
  func readSearchURL(_ url: SearchURL) -> SearchURLReading?
  /// Pasted URLs and the request each makes; empty for a site that takes none.
  var searchURLExamples: [SearchURLExample] { get }
  /// The request a run would have made for a saved response, so that reading it (`clarissa
  /// inspect`, fixture tests) gets the same context as a live run. The default builds it from
  /// ``requests(for:in:)``; a site whose reading needs more than that says so here.
  func request(
    forSavedResponseIn mode: String, city: String?, parameters: [String: ParameterValue],
    url: String?
  ) -> RequestSpec
}

/// A city a site knows by name, for listings in `clarissa sites`.
public struct KnownCity: Sendable, Equatable {
  /// What a search writes (`sfbay`, `sfbay/eby`).
  public var name: String
  /// What it is (`SF bay area, CA, US`).
  public var description: String
  /// Its IANA time zone when the site's tables say (`America/Los_Angeles` for seattle).
  public var timeZone: String?

  /// Creates an entry.
  public init(name: String, description: String, timeZone: String? = nil) {
    self.name = name
    self.description = description
    self.timeZone = timeZone
  }
}

/// Whether a site can be relied on today.
public enum SiteStatus: String, Sendable, CaseIterable {
  /// Works today.
  case active
  /// Works only in an old mode that the site may block.
  case legacy
  /// The site is gone; kept so old configs get a clear message.
  case defunct
  /// Built from documentation that could not be checked against the live site.
  case unverified
}

/// What `cities:` means for a site.
public enum CityRule: Sendable, Equatable {
  /// Each city is one of the site's areas, checked by ``FeedSource/checkCity(_:)``; at least one.
  case required
  /// The site takes no cities (a generic feed lists its URLs instead).
  case unused
}

/// The result of checking a name against a site's list.
public enum NameCheck: Sendable, Equatable {
  case valid
  /// Unknown: an error, with the closest known names (best first) and optionally why.
  case unknown(suggestions: [String], reason: String? = nil)
  /// Not in the site's tables but shaped like a real name: a warning, the value is still used.
  case doubtful(suggestions: [String], reason: String? = nil)
  /// Not the site's name but a spelling of one beyond doubt (`sf` for Craigslist's `sfbay`): a
  /// warning, and the site's name is used.
  case means(String)
}

/// The minimum a site's hosts need between requests, and how often one search may run.
public struct Politeness: Sendable, Equatable {
  /// Least time between two requests to one host, in seconds.
  public var minimumDelay: Double
  /// Up to this many seconds added at random to each delay.
  public var jitter: Double
  /// Requests to one host at the same time.
  public var concurrencyPerHost: Int
  /// Shortest interval a search on this site should use, in seconds.
  public var minimumInterval: Int

  /// Creates a politeness budget.
  public init(minimumDelay: Double, jitter: Double, concurrencyPerHost: Int, minimumInterval: Int) {
    self.minimumDelay = minimumDelay
    self.jitter = jitter
    self.concurrencyPerHost = concurrencyPerHost
    self.minimumInterval = minimumInterval
  }
}

extension FeedSource {
  /// The parameter called `name`, if the site declares one.
  public func parameter(named name: String) -> SiteParameter? {
    parameters.first { $0.name == name }
  }

  /// By default a site reads every item of every answer.
  public var passesUnchangedItems: Bool { false }

  /// By default a search names its cities.
  public var defaultCity: String? { nil }

  /// By default a site serves no country in particular.
  public var countries: [String] { [] }
  /// By default a site is a marketplace.
  public var kind: SiteKind { .marketplace }
  /// By default no wall is known.
  public var wall: SiteWall { .none }
  /// By default a site has no recorded sample.
  public var samples: [SiteSample] { [] }

  /// By default two ids of a site may be one item posted again.
  public var idsUnique: Bool { false }
  /// By default a site's currency is not known (it varies, or the listings say it).
  public var currency: String? { nil }

  /// By default a site may give coordinates.
  public var givesCoordinates: Bool { true }

  /// By default a city's place is not known.
  public func coordinates(of city: CityRef) -> Coordinates? { nil }

  /// By default a site accepts any category.
  public func checkCategory(_ name: String) -> NameCheck { .valid }

  public func caution(parameter: String, category: String?) -> String? { nil }

  /// The request of ``request(forSavedResponseIn:city:parameters:url:)`` with no parameters.
  public func request(forSavedResponseIn mode: String, city: String?, url: String? = nil)
    -> RequestSpec
  {
    request(forSavedResponseIn: mode, city: city, parameters: [:], url: url)
  }

  /// By default: the first request the site makes for a search with these parameters (and the
  /// URL as its URL list, for a site that takes URLs), in `mode`, from `url`.
  public func request(
    forSavedResponseIn mode: String, city: String?, parameters: [String: ParameterValue],
    url: String?
  ) -> RequestSpec {
    firstRequest(forSavedResponseIn: mode, city: city, parameters: parameters, url: url)
  }

  /// The default of ``request(forSavedResponseIn:city:parameters:url:)``, for a site that adds
  /// to it.
  public func firstRequest(
    forSavedResponseIn mode: String, city: String?, parameters: [String: ParameterValue],
    url: String?
  ) -> RequestSpec {
    var values = parameters
    values["mode"] = values["mode"] ?? .text(mode)
    if let url, let list = self.parameters.first(where: { $0.kind == .urls }) {
      values[list.name] = .urls([url])
    }
    let search = Search(name: "saved", site: id, parameters: values)
    var spec =
      requests(for: search, in: city.map { CityRef($0) }).first
      ?? RequestSpec(url: url ?? "", mode: mode)
    spec.mode = mode
    if let url { spec.url = url }
    return spec
  }

  /// Every request a search makes: one set per city, or one for sites that take no cities (or
  /// for a pasted URL, which names its own place), carrying the search's
  /// `allow_private_redirects`.
  public func requests(for search: Search) -> [RequestSpec] {
    let cities: [CityRef?] =
      search.url != nil
      ? [search.cities.first]
      : self.cities == .required ? search.cities.map { $0 } : [nil]
    return cities.flatMap { requests(for: search, in: $0) }.map {
      var request = $0
      request.allowsPrivateRedirects = search.allowPrivateRedirects
      return request
    }
  }

  /// By default a site has no list of cities to show.
  public func knownCities(matching filter: String?) -> [KnownCity] { [] }

  /// By default a site lists no categories.
  public func knownCategories(matching filter: String?) -> [KnownCity] { [] }

  /// By default a site cannot say what a category means.
  public func categoryMeaning(_ code: String) -> String? { nil }

  /// By default a site takes no pasted URLs.
  public func readSearchURL(_ url: SearchURL) -> SearchURLReading? { nil }

  /// By default a site has no pasted URLs to show.
  public var searchURLExamples: [SearchURLExample] { [] }
}
