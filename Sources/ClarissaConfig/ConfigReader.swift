internal import ClarissaCore
internal import Foundation
internal import YAML

/// Turns the YAML node tree into a ``Config``, recording every problem as a located
/// ``Diagnostic`` and carrying on, so that one pass reports all of them.
final class ConfigReader {
  let file: String
  let baseDirectory: String
  let environment: [String: String]
  let sites: SiteCatalog
  /// The channel kinds a `notify` URL may be of.
  let channelKinds: ChannelCatalog
  private let text: String
  /// Split only when a message needs a column inside a scalar.
  private lazy var lines: [[Unicode.Scalar]] = text.split(
    separator: "\n", omittingEmptySubsequences: false
  ).map { Array($0.unicodeScalars) }
  var diagnostics: [Diagnostic] = []
  /// Each GeoJSON area `within` names (by resolved path), read once per load; nil for a file
  /// with problems.
  var areas: [String: GeoArea?] = [:]
  /// The text of other files that messages point into (a GeoJSON area), by display name.
  var extraSources: [String: String] = [:]
  /// Each city group's entry, for pointing at a group's members from a search.
  var cityGroupNodes: [String: Table.Entry] = [:]
  /// Every window and channel name written, even those with errors, so that a search naming
  /// a broken window is not told the window does not exist.
  var blackoutNames: Set<String> = []
  var channelNames: Set<String> = []
  /// Every place name written under `places:`, even those with errors.
  var placeNames: Set<String> = []
  /// Each place's `[latitude, longitude]` as written, for warnings about it.
  var placeNodes: [String: Node] = [:]
  /// Every city group, channel and blackout window a search used.
  var usedNames: Set<UsedName> = []
  /// Each site's verdict on each city name, asked once per load (a shared group of cities is
  /// checked for every search that names it).
  var cityChecks: [CityCheckKey: NameCheck] = [:]
  /// The keys a search on each site may hold (by site id), made once per load: the common keys,
  /// then the site's parameters, and the same as a set for looking up.
  var searchKeys: [String: (list: [String], set: Set<String>)] = [:]
  /// Each site's parameter defaults (by site id), read from its declarations once per load.
  var parameterDefaults: [String: [String: ParameterValue]] = [:]
  /// `http.min_delay` and its node, checked against the floors of the sites the searches use
  /// once they are read.
  var userDelay: (Interval, Node)?

  /// A name a search used: its kind ("group", "channel", "blackout window") and the name.
  struct UsedName: Hashable {
    var kind: String
    var name: String
  }

  /// A site and a city name it was asked about.
  struct CityCheckKey: Hashable {
    var site: String
    var city: String
  }

  /// The newest schema version this build reads.
  static let currentVersion = 1

  static let topLevelKeys = [
    "version", "defaults", "cities", "blackout", "notify", "state", "http", "output", "limits",
    "geocoder", "searches", "sites", "places", "serve", "photos", "routing",
  ]

  init(
    file: String, text: String, baseDirectory: String, environment: [String: String],
    sites: SiteCatalog, channels: [any ChannelKind]
  ) {
    self.file = file
    self.text = text
    self.baseDirectory = baseDirectory
    self.environment = environment
    self.sites = sites
    self.channelKinds = ChannelCatalog(channels)
  }

  // MARK: - Reporting

  func location(_ mark: Mark) -> SourceLocation {
    SourceLocation(file: file, line: mark.line, column: mark.column)
  }

  func location(_ node: Node) -> SourceLocation { location(node.start) }

  /// Marks the diagnostics from index `start` on as holding `secrets` (a channel's tokens), which
  /// the renderer masks.
  func hide(_ secrets: [String], inDiagnosticsFrom start: Int) {
    guard !secrets.isEmpty else { return }
    for index in diagnostics.indices where index >= start {
      diagnostics[index].secrets += secrets
    }
  }

  /// The 1-based line of the source, as Unicode scalars.
  func sourceLine(_ number: Int) -> [Unicode.Scalar]? {
    lines.indices.contains(number - 1) ? lines[number - 1] : nil
  }

  func error(_ message: String, at node: Node, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.error(message, at: location(node), notes: notes))
  }

  func error(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.error(message, at: location, notes: notes))
  }

  func warning(_ message: String, at node: Node, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.warning(message, at: location(node), notes: notes))
  }

  func warning(_ message: String, at location: SourceLocation, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.warning(message, at: location, notes: notes))
  }

  // MARK: - The whole file

  func read(_ root: Node) -> Config? {
    guard let table = table(root, "the config file") else { return nil }
    // `x-` keys are free for the user's own anchors (`x-filters: &common [...]`), as in Compose.
    let ownKeys = table.entries.map(\.key).filter { $0.hasPrefix("x-") }
    checkKeys(table, allowed: Self.topLevelKeys + ownKeys, in: "the config file")
    var config = Config()
    readVersion(table, into: &config)
    config.cityGroups = readCityGroups(table["cities"])
    config.blackouts = readBlackouts(table["blackout"])
    config.channels = readChannels(table["notify"])
    if let node = table["state"] { config.state = readState(node) }
    if let node = table["http"] { config.http = readHTTP(node) }
    if let node = table["output"] { config.output = readOutput(node) }
    if let node = table["limits"] { config.limits = readLimits(node) }
    if let node = table["geocoder"] { config.geocoder = readGeocoder(node) }
    if let node = table["serve"] { config.serve = readServe(node) }
    if let node = table["photos"] { config.photos = readPhotos(node) }
    // The folder of the user's own site definitions: read before the config (its sites are
    // names the searches may use), so here only its type is checked.
    if let node = table["sites"] { _ = string(node, "'sites' (a folder of site definitions)") }
    config.places = readPlaces(table["places"])
    // Before the searches: a search's `commute` names the modes it has engines for.
    if let node = table["routing"] { config.routing = readRouting(node) }
    config.searches = readSearches(table, config: config)
    warnFarPlaces(config)
    if let (delay, node) = userDelay {
      explainFloors(below: delay, at: node, used: Set(config.searches.map(\.site)))
    }
    if !diagnostics.hasErrors { warnUnused(table) }
    return config
  }

  /// Names defined but used by no search are usually a typo elsewhere; only said when the file
  /// has no errors, since a broken search cannot use anything.
  private func warnUnused(_ table: Table) {
    let sections = [
      ("cities", "group", "city group"), ("notify", "channel", "channel"),
      ("blackout", "blackout window", "blackout window"),
    ]
    for (key, tag, label) in sections {
      guard let node = table[key], let entries = node.mapping else { continue }
      for pair in entries {
        guard let name = pair.key.scalar?.value,
          !usedNames.contains(UsedName(kind: tag, name: name))
        else {
          continue
        }
        warning("\(label) '\(name)' is not used by any search", at: pair.key)
      }
    }
  }

  private func readVersion(_ table: Table, into config: inout Config) {
    guard let node = table["version"] else {
      warning(
        "no 'version' key; reading the file as version \(Self.currentVersion)", at: table.node)
      return
    }
    guard let version = integer(node, "'version'", in: 1...Int.max) else { return }
    if version > Self.currentVersion {
      error(
        "config version \(version) is newer than this clarissa understands "
          + "(\(Self.currentVersion)); upgrade clarissa", at: node)
    }
    config.version = version
  }
}
