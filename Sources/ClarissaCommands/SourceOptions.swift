internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Curl
internal import Foundation
internal import ListingStore
internal import Sites

/// The options `run`, `watch` and `explain` share: which config, where answers come from, and
/// which state file; and how they turn into the engine's parts.
struct SourceOptions: ParsableArguments {
  @Option(name: [.short, .long], help: ArgumentHelp("The config file.", valueName: "file"))
  var config = "searches.yaml"

  @Option(
    help: ArgumentHelp("Answer requests from recorded responses; no network.", valueName: "dir"))
  var replay: String?

  @Option(
    help: ArgumentHelp(
      "The state database (default: state.path from the config).", valueName: "file"))
  var state: String?

  @Option(help: .hidden)
  var politenessDelay: Double?

  /// The config's folder: relative paths in the config are relative to it.
  var folder: String { (config as NSString).deletingLastPathComponent }

  /// Reads the config, printing its problems (only errors when `quiet`); exit 2 on errors. The
  /// sites it was read against (the user's own definitions included) come with it, for the runner.
  func loadConfig(quiet: Bool = false) throws -> (
    config: Config, diagnostics: [Diagnostic], sites: SiteCatalog
  ) {
    try MissingConfig.check(config)
    let (loaded, catalog, renderer) = readConfig(
      colored: Terminal.wantsColor(fileDescriptor: STDERR_FILENO))
    Terminal.error(renderer.render(loaded.diagnostics.filter { !quiet || $0.severity == .error }))
    guard let configuration = loaded.config else { throw ExitStatus.configInvalid.exitCode }
    return (configuration, loaded.diagnostics, catalog)
  }

  /// The config and the user's site definitions read, with a renderer for their problems;
  /// nothing printed, nothing thrown (`clarissa serve` shows a broken config on its pages).
  func readConfig(colored: Bool) -> (
    loaded: ConfigLoadResult, catalog: SiteCatalog, renderer: DiagnosticRenderer
  ) {
    let sites = UserSites.load(forConfig: config)
    let loaded = sites.loadConfig(environment: ProcessInfo.processInfo.environment)
    return (loaded, sites.catalog, DiagnosticRenderer(sources: loaded.sources, colored: colored))
  }

  /// `--state`, else `state.url`, else `state.path` relative to the config's folder.
  func statePath(_ configuration: Config) -> String {
    if let state { return StoreAccess.isURL(state) ? state : resolve(state) }
    return configuration.state.url ?? resolve(configuration.state.path)
  }

  /// How a PostgreSQL store is reached and shared (its password read from its file).
  func sharing(_ configuration: Config) throws -> StoreSharing {
    try StoreSharing(configuration.state, resolve: resolve)
  }

  /// A path as the config wrote it, made relative to the config's folder.
  func resolve(_ path: String) -> String {
    path.hasPrefix("/") || folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
  }

  /// Politeness from the config; none for recorded answers (nobody is on the other end).
  func schedulerSettings(_ configuration: Config) -> SchedulerSettings {
    var settings = SchedulerSettings(
      minimumDelay: configuration.http.minimumDelay.timeInterval,
      jitter: configuration.http.jitter.timeInterval,
      maxConcurrentHosts: configuration.http.maxConcurrentHosts,
      userAgent: configuration.http.userAgent,
      environment: ProcessInfo.processInfo.environment)
    if replay != nil { settings.delayOverride = 0 }
    if let politenessDelay { settings.delayOverride = politenessDelay }
    return settings
  }

  /// The limits the config sets for fetching.
  func limits(_ configuration: Config) -> FetchLimits {
    FetchLimits(
      timeout: configuration.http.timeout.timeInterval,
      maxBytes: configuration.http.maxResponseBytes)
  }

  /// Where answers come from: the recording (the user's geocoder and routing engines still
  /// asked through `live`, ``ReplayWithServices``), or the network through `live`.
  func sourceFetcher(live: @autoclosure () -> any Fetcher) throws -> any Fetcher {
    guard let replay else { return live() }
    do { return ReplayWithServices(try ReplayFetcher(folder: replay), live: live()) } catch let
      error as FetchError
    {
      Terminal.error("error: \(error.message)\n")
      throw ExitStatus.failure.exitCode
    }
  }
}
