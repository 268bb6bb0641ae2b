/// How a commute is travelled: the modes `routing:` gives an engine for and `commute:` names in
/// `by:`.
public enum TravelMode: String, Sendable, CaseIterable, Codable, Hashable {
  /// By car (OSRM's `driving` profile by default).
  case car
  /// By bicycle (OSRM's `cycling`).
  case bike
  /// On foot (OSRM's `foot`).
  case foot
  /// By public transport (MOTIS).
  case transit

  /// The fastest a journey of this mode covers ground in a straight line, in km/h: a listing
  /// farther from the place than `max` minutes at this speed cannot be within `max`, and no
  /// engine is asked about it (the straight-line bound). Above the speeds people reach door to
  /// door (a road or a line is longer than the straight line; a walk to the stop and a wait come
  /// first): car 120, bike 30, foot 7, transit 70 km/h. A limit met only by a faster train than
  /// that (an intercity across 40 km in 30 minutes) is missed; docs/configuration.md says so.
  public var topSpeed: Double {
    switch self {
    case .car: 120
    case .bike: 30
    case .foot: 7
    case .transit: 70
    }
  }

  /// The farthest a listing may be, in a straight line, and still be reached in `minutes`.
  public func reach(inMinutes minutes: Double) -> Distance {
    Distance(metres: topSpeed * 1_000 * minutes / 60)
  }
}

/// A routing engine the user points at in `routing:`. clarissa routes nothing itself: an
/// engine answers, or the time stays unknown.
public struct RoutingEngine: Sendable, Equatable {
  /// Which API the engine speaks.
  public enum Kind: String, Sendable, CaseIterable {
    /// OSRM's table service (`GET /table/v1/{profile}/{coordinates}`): car, bike, foot.
    case osrm
    /// MOTIS's API (the engine behind Transitous): transit.
    case motis
  }

  /// The API.
  public var kind: Kind
  /// The engine's base URL (`http://127.0.0.1:5000`, `https://api.transitous.org`).
  public var url: String
  /// OSRM's profile (`driving`, `cycling`, `foot`); nil for MOTIS.
  public var profile: String?
  /// MOTIS: the weekly moment the journeys arrive at the place (`arrive: "Mon 08:30"`, or
  /// `depart:`, read as the same); nil for OSRM. MOTIS times many homes to one place by the
  /// arrival there, so this is an arrival, whatever the key's name.
  public var depart: Departure?
  /// Requests one run makes to this engine at most; listings left over wait for the next run.
  public var perRun: Int
  /// The least time between two requests to this engine.
  public var delay: Interval

  /// Creates an engine.
  public init(
    kind: Kind, url: String, profile: String? = nil, depart: Departure? = nil, perRun: Int = 20,
    delay: Interval = .seconds(1)
  ) {
    self.kind = kind
    self.url = url
    self.profile = profile
    self.depart = depart
    self.perRun = perRun
    self.delay = delay
  }

  /// What answers of this engine are kept under in the store: its URL and what changes an
  /// answer (the profile, the departure), so another engine or setting never reuses them.
  public var cacheName: String {
    [kind.rawValue, url, profile ?? "", depart?.description ?? ""].joined(separator: " ")
  }
}

/// A weekly moment (`Mon 08:30`), in the config's time zone: the next such moment is asked, so
/// the answers stay comparable from run to run. MOTIS reads it as the journeys' arrival at the
/// place (``RoutingEngine/depart``).
public struct Departure: Sendable, Equatable, CustomStringConvertible {
  /// The day, 1 (Monday) to 7 (Sunday), ISO 8601's numbering.
  public var weekday: Int
  /// Minutes after midnight.
  public var minutes: Int

  /// The weekday names as written, Monday first.
  public static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

  /// Creates a departure.
  public init(weekday: Int, minutes: Int) {
    self.weekday = weekday
    self.minutes = minutes
  }

  /// As written: `Mon 08:30`.
  public var description: String {
    let name = Self.weekdayNames[max(0, min(6, weekday - 1))]
    let hour = minutes / 60
    let minute = minutes % 60
    return "\(name) \(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
  }
}

/// `routing:`: an engine per travel mode; none by default, and then nothing leaves the machine
/// for travel times.
public struct RoutingSettings: Sendable, Equatable {
  /// The engine of each mode the config names.
  public var engines: [TravelMode: RoutingEngine]

  /// Creates settings.
  public init(engines: [TravelMode: RoutingEngine] = [:]) {
    self.engines = engines
  }
}

/// One entry of a search's `commute:`: a place, the mode, and the longest the journey may take.
public struct CommuteLimit: Sendable, Equatable {
  /// The place (from `places:`).
  public var place: NamedPlace
  /// How the journey is made.
  public var mode: TravelMode
  /// The longest it may take, in minutes.
  public var maxMinutes: Double

  /// Creates a limit.
  public init(place: NamedPlace, mode: TravelMode, maxMinutes: Double) {
    self.place = place
    self.mode = mode
    self.maxMinutes = maxMinutes
  }

  /// The straight-line bound: a listing farther than this from the place cannot make it.
  public var reach: Distance { mode.reach(inMinutes: maxMinutes) }

  /// Whether `position` is farther from the place, in a straight line, than ``reach``.
  public func isBeyondReach(_ position: Coordinates) -> Bool {
    place.coordinates.distance(to: position) > reach
  }

  /// `limits` (of several searches) once per place and mode, in order: the shortest `max`
  /// where they differ.
  public static func merged(_ limits: some Sequence<CommuteLimit>) -> [CommuteLimit] {
    var merged: [CommuteLimit] = []
    for limit in limits {
      if let index = merged.firstIndex(where: {
        $0.place.name == limit.place.name && $0.mode == limit.mode
      }) {
        merged[index].maxMinutes = min(merged[index].maxMinutes, limit.maxMinutes)
      } else {
        merged.append(limit)
      }
    }
    return merged
  }
}

/// A listing's travel time to a place, as an engine answered (or why there is none).
public struct CommuteTime: Sendable, Equatable, Codable {
  /// The place's name.
  public var place: String
  /// The mode.
  public var by: TravelMode
  /// The journey's length in minutes; nil when it is not known (``note`` says why).
  public var minutes: Double?
  /// Why there is no time: "beyond 35 km" (the straight-line bound), "no route", "engine
  /// failed", "not asked yet"; nil with a time.
  public var note: String?

  /// Creates a travel time.
  public init(place: String, by: TravelMode, minutes: Double?, note: String? = nil) {
    self.place = place
    self.by = by
    self.minutes = minutes
    self.note = note
  }

  /// The minutes shown, rounded to whole minutes (at least 1).
  public var shownMinutes: Int? { minutes.map { max(1, Int($0.rounded())) } }

  /// As messages, reports and pages say it: "24 min by transit to work"; "travel time to work
  /// by transit unknown (engine failed)" without a time.
  public var words: String {
    guard let shown = shownMinutes else {
      return "travel time to \(place) by \(by.rawValue) unknown" + (note.map { " (\($0))" } ?? "")
    }
    return "\(shown) min by \(by.rawValue) to \(place)"
  }

  private enum CodingKeys: String, CodingKey { case place, by, minutes, note }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(place, forKey: .place)
    try container.encode(by, forKey: .by)
    // Whole minutes in the JSON, as shown; null when unknown.
    try container.encode(shownMinutes, forKey: .minutes)
    try container.encodeIfPresent(note, forKey: .note)
  }
}

extension Listing {
  /// The travel times in one line: "24 min by transit to work · 12 min by bike to gym"; nil
  /// when there are none.
  public var commuteWords: String? {
    commute.isEmpty ? nil : commute.map(\.words).joined(separator: " · ")
  }
}

/// The grid the engines' answers are kept on: a listing's position rounded to 0.001° of
/// latitude and of longitude (cells of 111 m by 68 m at Berlin's latitude, a minute's walk at
/// most), so listings of one building, and a listing whose pin moves a few metres, share one
/// answer. The engines are asked for the cell's point, so a kept answer is exactly the one
/// for its key.
public enum CommuteGrid {
  /// The cell's size in degrees.
  public static let step = 0.001

  /// The cell's point: `position` rounded to ``step``.
  public static func cell(_ position: Coordinates) -> Coordinates {
    Coordinates(
      latitude: (position.latitude / step).rounded() * step,
      longitude: (position.longitude / step).rounded() * step)
  }

  /// The cell's key in the store: "52.520,13.405" (three decimals, `.` as the separator).
  public static func key(_ position: Coordinates) -> String {
    let cell = cell(position)
    return "\(thousandths(cell.latitude)),\(thousandths(cell.longitude))"
  }

  /// A place's key: its position to six decimals (a moved place is a new place).
  public static func placeKey(_ position: Coordinates) -> String {
    "\(millionths(position.latitude)),\(millionths(position.longitude))"
  }

  private static func thousandths(_ value: Double) -> String { fixed(value, 1_000, 3) }
  private static func millionths(_ value: Double) -> String { fixed(value, 1_000_000, 6) }

  /// `value` with `digits` decimals, without Foundation's locale or its formatting traps.
  private static func fixed(_ value: Double, _ scale: Double, _ digits: Int) -> String {
    let scaled = Int((abs(value) * scale).rounded())
    let whole = scaled / Int(scale)
    var fraction = String(scaled % Int(scale))
    fraction = String(repeating: "0", count: digits - fraction.count) + fraction
    return "\(value < 0 && scaled != 0 ? "-" : "")\(whole).\(fraction)"
  }
}
