internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

/// What every `clarissa state` subcommand takes: the config (for `state.path` and the sites
/// of a JSON state's searches) or the database itself; and how each opens the store.
struct StateOptions: ParsableArguments {
  @Option(name: [.short, .long], help: ArgumentHelp("The config file.", valueName: "file"))
  var config = "searches.yaml"

  @Option(
    help: ArgumentHelp(
      "The state database (default: state.path from the config).", valueName: "file"))
  var state: String?

  @Option(help: .hidden)
  var now: String?

  func validate() throws {
    if let now, Run.parseDate(now) == nil {
      throw ValidationError("--now takes an ISO 8601 time such as 2026-03-08T01:30:00-05:00")
    }
  }

  /// `--now`, else the time now.
  var clock: Date { now.flatMap(Run.parseDate) ?? Date() }

  /// The config and the state path: `--state`, else the config's `state.path` relative to the
  /// config's folder. With `--state`, the config is read only by writers (the sites of a JSON
  /// state's searches, the retention) and only when its file exists: a reader such as
  /// `state check --state FILE` never depends on a config.
  func target(writing: Bool) throws -> (config: Config?, path: String) {
    if let state, !writing || !FileManager.default.fileExists(atPath: config) {
      return (nil, state)
    }
    let options = try SourceOptions.parse(["--config", config])
    let (configuration, _, _) = try options.loadConfig(quiet: true)
    return (configuration, state ?? options.statePath(configuration))
  }

  /// The config's searches by name, for the facts and distances shown beside their listings;
  /// none when the config is not there or has errors (the store is read all the same).
  func configuredSearches() -> [String: Search] { configured()?.searchesByName ?? [:] }

  /// The PostgreSQL store named by `--state` or `state.url`, with how to reach it (as the
  /// config says, when it was read); nil for a file.
  func sharedStore() throws -> (url: String, sharing: StoreSharing)? {
    let (configuration, path) = try target(writing: false)
    guard StoreAccess.isURL(path) else { return nil }
    let options = try SourceOptions.parse(["--config", config])
    return (path, try configuration.map(options.sharing) ?? StoreSharing())
  }

  /// What the commands that read or change a file say of a PostgreSQL store.
  static func fileOnly(_ url: String) -> StoreProblem {
    StoreProblem(
      "'\(StoreSharing.masked(url))' is a PostgreSQL store; this command works on a "
        + "SQLite file. 'clarissa state info' shows the shared store; 'clarissa state migrate "
        + "--from URL --to FILE' copies it into a file for the others")
  }

  /// Whether the database exists, or a JSON state waits to be imported into it: else there is
  /// nothing remembered yet, and readers say so rather than create a file.
  static func remembers(_ path: String) -> Bool {
    let located = StoreAccess.locate(path)
    return located.legacy != nil || FileManager.default.fileExists(atPath: located.database)
  }

  /// Runs `body` on the store read-only, without the lock (a run may be writing), or says
  /// (unless `quiet`) that nothing is remembered yet and returns nil.
  func reading<T>(quiet: Bool = false, _ body: (ListingStore, String) throws -> T) throws -> T? {
    try Self.failing {
      let (configuration, path) = try target(writing: false)
      if StoreAccess.isURL(path) { throw Self.fileOnly(path) }
      guard Self.remembers(path) else {
        if !quiet { print(Self.nothingYet(path)) }
        return nil
      }
      let access = try StoreAccess.open(path, writing: false, lockWait: 0, config: configuration)
      defer { access.close() }
      return try body(try Self.store(access), StoreAccess.locate(path).database)
    }
  }

  /// Runs `body` on the store under the writers' lock (waiting up to 5 s for a run), creating
  /// the database only when `create`; otherwise returns nil when nothing is remembered yet.
  func writing<T>(create: Bool = false, _ body: (ListingStore, Config?) throws -> T) throws -> T? {
    try Self.failing {
      let (configuration, path) = try target(writing: true)
      if StoreAccess.isURL(path) { throw Self.fileOnly(path) }
      guard create || Self.remembers(path) else {
        print(Self.nothingYet(path))
        return nil
      }
      let access = try StoreAccess.open(path, writing: true, lockWait: 5, config: configuration)
      defer { access.close() }
      return try body(try Self.store(access), configuration)
    }
  }

  /// What readers print when there is no database yet.
  static func nothingYet(_ path: String) -> String {
    "no state database at '\(StoreAccess.locate(path).database)' yet: nothing is remembered "
      + "(the first run creates it)"
  }

  private static func store(_ access: StoreAccess) throws -> ListingStore {
    guard let store = access.memory as? ListingStore else {
      throw StoreProblem("'\(access.memory)' is not a clarissa state database")
    }
    return store
  }

  /// Runs `body`; a store that cannot be used is reported and exits 5 (a locked, damaged or
  /// newer database), as `run` does.
  static func failing<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as ExitCode {
      throw error
    } catch let error as RunError {
      Terminal.error("error: \(error.message)\n")
      throw ExitStatus.stateUnusable.exitCode
    } catch {
      Terminal.error("error: \(error)\n")
      throw ExitStatus.stateUnusable.exitCode
    }
  }
}
