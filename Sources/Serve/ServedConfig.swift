package import ClarissaCore
package import Foundation

/// What the pages know of the config: its searches in order, and its problems as the terminal
/// shows them (with file:line:column), or the reason it could not be read at all.
package struct ServedConfig: Sendable {
  /// One search as the list of searches shows it.
  package struct Search: Sendable {
    /// Its name.
    package var name: String
    /// Its site's id.
    package var site: String
    /// Seconds between runs.
    package var interval: Double
    /// `enabled: false` searches are listed as off.
    package var enabled: Bool
    /// The hosts its requests go to (for their cool-downs).
    package var hosts: [String]
    /// The named places its distances are shown from (``ClarissaCore/Search/places``).
    package var places: [NamedPlace]
    /// Its `within:` areas, drawn on the map.
    package var areas: [GeoArea]
    /// The unit its floor areas are shown in (its filters' unit, else the site's).
    package var areaUnit: AreaUnit?
    /// Its `near:` places and their radii, drawn on the map as circles.
    package var near: [PlaceRadius] = []
    /// Its `commute:` limits: the map colours its markers by them.
    package var commute: [CommuteLimit] = []

    /// Creates a search's entry.
    package init(
      name: String, site: String, interval: Double, enabled: Bool, hosts: [String],
      places: [NamedPlace] = [], areas: [GeoArea] = [], areaUnit: AreaUnit? = nil,
      near: [PlaceRadius] = [], commute: [CommuteLimit] = []
    ) {
      self.near = near
      self.commute = commute
      self.name = name
      self.site = site
      self.interval = interval
      self.enabled = enabled
      self.hosts = hosts
      self.places = places
      self.areas = areas
      self.areaUnit = areaUnit
    }
  }

  /// The config file.
  package var path: String
  /// Its searches, in order (none when it could not be read).
  package var searches: [Search]
  /// Errors and warnings as rendered text; empty when there are none.
  package var problems: String
  /// Whether the problems include an error (the config is not the one running).
  package var hasErrors: Bool
  /// Per channel with a scheduled digest: when its digest goes for deliveries owed since a
  /// time, quiet hours respected (the engine's `DigestTiming`, given by the command).
  package var digests: [String: @Sendable (Date) -> Date] = [:]
  /// `routing:`: the engines whose kept answers the travel times are read from.
  package var routing = RoutingSettings()

  /// The named places of `names` (every search's when empty), each once by name, in order.
  package func places(of names: [String]) -> [NamedPlace] {
    var seen = Set<String>()
    return chosen(names).flatMap(\.places).filter { seen.insert($0.name).inserted }
  }

  /// The `near:` entries of `names` (every search's when empty), each place and radius once.
  package func near(of names: [String]) -> [PlaceRadius] {
    var seen: [PlaceRadius] = []
    for entry in chosen(names).flatMap(\.near) where !seen.contains(entry) { seen.append(entry) }
    return seen
  }

  /// The `commute:` limits of `names` (every search's when empty), one per place and mode: the
  /// shortest `max` when searches differ.
  package func commute(of names: [String]) -> [CommuteLimit] {
    CommuteLimit.merged(chosen(names).flatMap(\.commute))
  }

  /// The areas of `names` (every search's when empty), each once by name.
  package func areas(of names: [String]) -> [GeoArea] {
    var seen = Set<String>()
    return chosen(names).flatMap(\.areas).filter { seen.insert($0.name).inserted }
  }

  private func chosen(_ names: [String]) -> [Search] {
    names.isEmpty ? searches : searches.filter { names.contains($0.name) }
  }

  /// Creates the pages' view of a config.
  package init(path: String, searches: [Search], problems: String, hasErrors: Bool) {
    self.path = path
    self.searches = searches
    self.problems = problems
    self.hasErrors = hasErrors
  }
}
