internal import Foundation

/// One named search, with the config's defaults applied and every reference checked.
public struct Search: Sendable {
  /// Unique name, used in reports and the state file.
  public var name: String
  /// The site adapter's id.
  public var site: String
  /// Words to search for, passed to the site.
  public var query: String?
  /// The site's category code (`sss`, `apa`, `fua`).
  public var category: String?
  /// The cities to search, group names expanded, in order, without repeats.
  public var cities: [CityRef]
  /// Whether the site searches titles only or titles and descriptions.
  public var searchIn: SearchScope
  /// Price bounds, when set.
  public var price: PriceRange?
  /// Only listings with a photo.
  public var hasImage: Bool
  /// Only listings posted today.
  public var postedToday: Bool
  /// How often the search runs.
  public var interval: Interval
  /// Inclusive and exclusive filters, the defaults' first.
  public var filters: [Filter]
  /// Channel names to deliver to.
  public var notify: [String]
  /// Quiet-hours window names.
  public var blackout: [String]
  /// Disabled searches are validated but never run.
  public var enabled: Bool
  /// What a repost (the same item under a new id) is: folded into the listing it repeats, or
  /// notified as new.
  public var duplicates: DuplicateMode = .fold
  /// Whether the search's site gives each listing one id (``FeedSource/idsUnique``): its ids
  /// are never folded as reposts of each other (the same flat on another site still is).
  public var idsUnique = false
  /// How far back a repost is looked for: a listing the search last saw longer ago is not one.
  public var repostWindow: Interval = Search.defaultRepostWindow
  /// `repost_window` when a search and `defaults` leave it out.
  public static let defaultRepostWindow = Interval.days(30)
  /// What is announced: new listings, and changes of listings already seen.
  public var notifyOn: Set<ListingEventKind> = [.new]
  /// How much a price must fall before a drop is announced.
  public var priceDrop = PriceThreshold(minPercent: 5, minAmount: 10)
  /// How much a price must rise before a rise is announced.
  public var priceRise = PriceThreshold(minPercent: 5, minAmount: 10)
  /// How long a listing must have been gone before its return is announced (`back`).
  public var backAfter: Interval = .days(7)
  /// Whether a request that started on a public address may be redirected to a loopback,
  /// link-local or private one (`allow_private_redirects`: a feed on the user's own network
  /// reached through a public name or a public redirector).
  public var allowPrivateRedirects = false
  /// The site's search page pasted from the browser (`url:`): when set, the site's requests
  /// come from it, and `cities`/`category` are what it names.
  public var url: SearchURL?
  /// What warning signs drop and which scam words are added (`signals:`).
  public var signals = SignalSettings()
  /// The site's own parameters (`mode`, `include_nearby`, `feeds` ...), defaults filled in.
  public var parameters: [String: ParameterValue]
  /// Filters on rooms, bedrooms, floor area, price per area and place (`rooms`, `near` ...).
  public var facts = FactFilters()
  /// The places whose distance is shown beside each listing: those `near` names, else every
  /// place of the config's `places:`.
  public var places: [NamedPlace] = []
  /// Where the search is written.
  public var location: SourceLocation?
  /// Set on the search a scheduled digest of several searches is sent as (no search of the
  /// config): the searches whose listings the one message carries, each with the number of
  /// them, in the order they are sent, so that each listing is shown with its own search.
  package var digestParts: [(search: Search, count: Int)] = []

  /// Creates a search.
  public init(
    name: String, site: String, query: String? = nil, category: String? = nil,
    cities: [CityRef] = [], searchIn: SearchScope = .titleAndDescription,
    price: PriceRange? = nil, hasImage: Bool = false, postedToday: Bool = false,
    interval: Interval = .minutes(30), filters: [Filter] = [], notify: [String] = [],
    blackout: [String] = [], enabled: Bool = true, parameters: [String: ParameterValue] = [:],
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.site = site
    self.query = query
    self.category = category
    self.cities = cities
    self.searchIn = searchIn
    self.price = price
    self.hasImage = hasImage
    self.postedToday = postedToday
    self.interval = interval
    self.filters = filters
    self.notify = notify
    self.blackout = blackout
    self.enabled = enabled
    self.parameters = parameters
    self.location = location
  }
}

/// What the site searches in.
/// What `notify_on` may name.
public enum ListingEventKind: String, Sendable, CaseIterable, Codable, Comparable {
  /// A listing the search has not seen.
  case new
  /// A seen listing's price fell (by the search's `price_drop` threshold, from the price last
  /// announced).
  case priceDrop = "price_drop"
  /// A seen listing's price rose.
  case priceRise = "price_rise"
  /// A listing gone for longer than `back_after` is up again (a starred listing: gone, then
  /// back).
  case back
  /// A seen listing's text (title or description) changed: announced with a word diff, for
  /// every listing of a search that names it, and for starred listings always.
  case changed
  /// A starred listing its source answered without on two runs in a row (per source: a city
  /// that failed does not count). Starred listings only.
  case gone
  /// A starred listing posted again under another id. Starred listings only.
  case reposted

  /// What `notify_on` may name; ``gone`` and ``reposted`` are told of starred listings only.
  public static let announceable: [Self] = [.new, .priceDrop, .priceRise, .back, .changed]

  /// As a report says it: `price drop`.
  public var words: String { rawValue.replacingOccurrences(of: "_", with: " ") }

  public static func < (left: Self, right: Self) -> Bool {
    allCases.firstIndex(of: left) ?? 0 < allCases.firstIndex(of: right) ?? 0
  }
}

/// How much a price must change to count: both the share and the amount.
public struct PriceThreshold: Sendable, Equatable {
  /// Percent of the price last announced.
  public var minPercent: Double
  /// In the listing's currency.
  public var minAmount: Double

  /// Creates a threshold.
  public init(minPercent: Double, minAmount: Double) {
    self.minPercent = minPercent
    self.minAmount = minAmount
  }

  /// Whether going from `old` to `new` moves far enough.
  public func passed(from old: Double, to new: Double) -> Bool {
    let change = abs(new - old)
    return change >= minAmount && (old == 0 || change / old * 100 >= minPercent)
  }
}

/// A change of a listing the search had seen, announced like a new one.
public struct ListingEvent: Sendable, Equatable, Codable {
  /// What happened.
  public var kind: ListingEventKind
  /// The price before (the one last announced), for a price change.
  public var oldPrice: Double?

  /// Creates an event.
  public init(kind: ListingEventKind, oldPrice: Double? = nil) {
    self.kind = kind
    self.oldPrice = oldPrice
  }
}

/// `duplicates:` in a search.
public enum DuplicateMode: String, Sendable, CaseIterable {
  /// A repost or cross-post of a known item is recorded, linked to it, and not announced.
  case fold
  /// Every new id is announced.
  case notify
}

/// `search_in:` in a search.
public enum SearchScope: String, Sendable, CaseIterable {
  case title
  case titleAndDescription = "title_and_description"
}

/// A city as the user wrote it, and the group it came from, if any.
public struct CityRef: Sendable, Hashable {
  /// The site's name for it (`sfbay`, `sfbay/eby`).
  public var name: String
  /// The `cities:` group that named it, if it came from one.
  public var group: String?

  /// Creates a city reference.
  public init(_ name: String, group: String? = nil) {
    self.name = name
    self.group = group
  }
}

/// Inclusive price bounds in the area's currency; either may be absent.
public struct PriceRange: Sendable, Equatable {
  /// Lowest price kept.
  public var min: Double?
  /// Highest price kept.
  public var max: Double?

  /// Creates a range.
  public init(min: Double? = nil, max: Double? = nil) {
    self.min = min
    self.max = max
  }

  /// Whether `price` lies within the bounds.
  public func contains(_ price: Double) -> Bool {
    (min.map { price >= $0 } ?? true) && (max.map { price <= $0 } ?? true)
  }

  /// Whether the range `low`...`high` (one value when `high` is nil) meets the bounds: a
  /// listing given as a range ("55 - 117 m²", "2 - 4 rooms") passes when some of it is within.
  public func overlaps(_ low: Double, _ high: Double?) -> Bool {
    let top = Swift.max(low, high ?? low)
    return (min.map { top >= $0 } ?? true) && (max.map { low <= $0 } ?? true)
  }
}
