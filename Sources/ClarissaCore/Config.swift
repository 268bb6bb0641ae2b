/// Everything a `searches.yaml` says, checked and with references resolved.
public struct Config: Sendable {
  /// The schema version the file declares (1).
  public var version: Int
  /// Named groups of cities (`bay-area: [sfbay, santabarbara]`).
  public var cityGroups: [String: [String]]
  /// Named quiet-hours windows.
  public var blackouts: [String: BlackoutWindow]
  /// Named notification channels.
  public var channels: [String: Channel]
  /// Where seen listings are remembered.
  public var state: StateSettings
  /// How requests are made.
  public var http: HTTPSettings
  /// The searches, in file order, with `defaults` already applied.
  public var searches: [Search]
  /// Files a run writes for people to subscribe to or look at.
  public var output: OutputSettings
  /// Bounds on what one source, search or channel may bring in a run.
  public var limits: Limits = Limits()
  /// Where the coordinates of listings that give only an address are looked up; nil (the
  /// default): nowhere, nothing leaves the machine for it.
  public var geocoder: GeocoderSettings? = nil
  /// Named points (`places: {work: [52.520, 13.405]}`), in file order, for `near` and the
  /// distances shown.
  public var places: [NamedPlace] = []
  /// `routing:`: the engine of each travel mode that `commute:` asks; none by default, and
  /// then nothing leaves the machine for travel times.
  public var routing = RoutingSettings()
  /// `photos:`: which photos of new listings are fetched for their fingerprints (on, 2 per
  /// listing and 200 per run by default; `photos: off`).
  public var photos = PhotoSettings()
  /// `serve:`: where a phone reaches the web interface (the notifications' buttons), and
  /// `clarissa serve`'s defaults; nil when the file has no such section.
  public var serve: ServeSettings? = nil

  /// The searches by name, for reports that show a listing's facts and distances as its
  /// search words them (`ListingFacts.line(_:for:)`, module Geography).
  public var searchesByName: [String: Search] {
    Dictionary(searches.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Creates a config.
  public init(
    version: Int = 1, cityGroups: [String: [String]] = [:],
    blackouts: [String: BlackoutWindow] = [:], channels: [String: Channel] = [:],
    state: StateSettings = StateSettings(), http: HTTPSettings = HTTPSettings(),
    searches: [Search] = [], output: OutputSettings = OutputSettings()
  ) {
    self.version = version
    self.cityGroups = cityGroups
    self.blackouts = blackouts
    self.channels = channels
    self.state = state
    self.http = http
    self.searches = searches
    self.output = output
  }
}

/// Bounds on what sites may bring in: a hostile or broken feed gives 140,000 items, a 7.9 MiB
/// title, or new ids on every answer. Each bound is reported when it bites.
public struct Limits: Sendable, Equatable {
  /// Listings read from one answer of one source; the rest are dropped, with a note in every
  /// report. A bound on memory, set high: the answer's size is bounded too
  /// (`http.max_response_size`), and reading a known listing costs next to nothing.
  public var itemsPerSource = 100_000
  /// New listings taken from one answer of one source in one run (judged, recorded,
  /// announced): what a flood costs. The others are not recorded, so the next run finds them
  /// new and takes them then; the run's line says how many were left.
  public var newPerAnswer = 2_000
  /// New listings announced per search and channel in one run; the rest are summed up in one
  /// message ("and 4,950 more") and stay browsable.
  public var announcePerSearch = 50
  /// Longest title kept, in characters; a longer one is stored cut, marked with `…`.
  public var titleLength = 300
  /// Longest place (the poster's location text).
  public var placeLength = 200
  /// Longest description.
  public var descriptionLength = 10_000

  /// The defaults.
  public init() {}
}

/// Where the Atom feeds and the HTML report go (paths as written, relative to the config).
public struct OutputSettings: Sendable, Equatable {
  /// A folder for one Atom feed per search and `all.xml`.
  public var atom: String?
  /// An HTML page of recent listings.
  public var html: String?
  /// How many recent listings the feeds and the page show per search.
  public var keep: Int

  /// Creates output settings; nothing is written by default.
  public init(atom: String? = nil, html: String? = nil, keep: Int = 50) {
    self.atom = atom
    self.html = html
    self.keep = keep
  }
}

/// Where the state file lives and how long a listing is remembered after it was last seen.
public struct StateSettings: Sendable, Equatable {
  /// The state file's path; relative paths are relative to the config file's folder.
  public var path: String
  /// A listing not seen for this long is forgotten (never a count cap: caps re-notify).
  public var retention: Interval

  /// A PostgreSQL store shared by several workers (`postgres://user@host/db`), in place of the
  /// file at `path`; nil: the file.
  public var url: String?
  /// A file holding the PostgreSQL password (its first line), beside the URL's own, PGPASSWORD
  /// or ~/.pgpass.
  public var passwordFile: String?
  /// How long a worker holds the sources it took before another may take them (PostgreSQL).
  public var lease: Interval
  /// Whose pace requests to a host keep, with a shared store: every worker's together, or each
  /// worker's own (workers behind different addresses on purpose).
  public var politeness: Politeness

  /// Whose pace requests to a host keep.
  public enum Politeness: String, Sendable, Equatable, CaseIterable {
    /// One pace for all the workers of the store, kept in the database.
    case shared
    /// Each worker keeps its own (they reach the sites from different addresses).
    case perWorker = "per_worker"
  }

  /// Creates state settings; defaults: `clarissa.db`, 90 days, leases of 5 minutes, a shared
  /// pace.
  public init(
    path: String = "clarissa.db", retention: Interval = .days(90), url: String? = nil,
    passwordFile: String? = nil, lease: Interval = .minutes(5), politeness: Politeness = .shared
  ) {
    self.path = path
    self.retention = retention
    self.url = url
    self.passwordFile = passwordFile
    self.lease = lease
    self.politeness = politeness
  }
}

/// How the fetcher talks to sites.
public struct HTTPSettings: Sendable, Equatable {
  /// Sent with every request; sites see it.
  public var userAgent: String
  /// Whole-request deadline (connect, headers and body), in seconds.
  public var timeout: Interval
  /// Largest response body accepted, in bytes.
  public var maxResponseBytes: Int
  /// Least time between two requests to one host; a site's own minimum wins if larger.
  public var minimumDelay: Interval
  /// Up to this much random time added to each delay.
  public var jitter: Interval
  /// How many hosts are fetched from at the same time.
  public var maxConcurrentHosts: Int

  /// The default User-Agent names the tool.
  public static let defaultUserAgent = "clarissa/0.1 (+https://github.com/clarissa-watch/clarissa)"

  /// Creates HTTP settings with polite defaults.
  public init(
    userAgent: String = HTTPSettings.defaultUserAgent, timeout: Interval = .seconds(30),
    maxResponseBytes: Int = 8 << 20, minimumDelay: Interval = .seconds(3),
    jitter: Interval = .seconds(2), maxConcurrentHosts: Int = 4
  ) {
    self.userAgent = userAgent
    self.timeout = timeout
    self.maxResponseBytes = maxResponseBytes
    self.minimumDelay = minimumDelay
    self.jitter = jitter
    self.maxConcurrentHosts = maxConcurrentHosts
  }
}
