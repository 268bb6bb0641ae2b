public import ClarissaCore
internal import Foundation
public import ListingStore

/// The store a run (or `explain`) works on, with the writers' lock when it writes. The one place
/// that opens it, for every command.
public final class StoreAccess: Sendable {
  /// The memory the stages talk to.
  public let memory: any ListingMemory
  private let lock: RunLock?

  private init(memory: any ListingMemory, lock: RunLock?) {
    self.memory = memory
    self.lock = lock
  }

  /// Opens the store named by `configured` (see ``locate(_:)``): locked and writable for a run,
  /// read-only for a dry run or `explain` (an empty store in memory when there is no file yet:
  /// nothing is created). A JSON state of an earlier version is imported first. `shared` is a
  /// store kept open by the caller: only the lock is taken.
  public static func open(
    _ configured: String, writing: Bool, lockWait: Double, config: Config?,
    shared: (any ListingMemory)? = nil, sharing: StoreSharing = StoreSharing()
  ) throws -> StoreAccess {
    do {
      if isURL(configured) {
        // Workers share a PostgreSQL store at the same time: no lock; leases share the work.
        return StoreAccess(
          memory: try shared ?? openShared(configured, sharing, registering: writing), lock: nil)
      }
      let path = locate(configured).database
      let lock = writing ? try RunLock(path: path, wait: lockWait) : nil
      // Looked for under the lock: a run that waited finds the JSON already imported.
      let legacy = locate(configured).legacy
      if let shared { return StoreAccess(memory: shared, lock: lock) }
      guard writing else { return StoreAccess(memory: try reader(path, legacy, config), lock: nil) }
      let store = try ListingStore.open(path: path, readOnly: false)
      if let legacy { try importing(legacy, into: store, config: config) }
      return StoreAccess(memory: store, lock: lock)
    } catch let error as RunError {
      throw error
    } catch let problem as RunLock.Problem where problem.busy {
      throw RunError(kind: .busy, message: problem.message)
    } catch {
      throw RunError(kind: .state, message: "\(error)")
    }
  }

  /// Whether the store is named by a PostgreSQL URL (`state.url`, or `--state postgres://...`).
  public static func isURL(_ configured: String) -> Bool {
    configured.hasPrefix("postgres://") || configured.hasPrefix("postgresql://")
  }

  /// The PostgreSQL store at `url`, or why this build cannot open one.
  private static func openShared(_ url: String, _ sharing: StoreSharing, registering: Bool)
    throws -> any ListingMemory
  {
    #if PostgreSQL
      return try PostgresStore.open(
        url: url, password: sharing.password, lease: sharing.lease,
        sharedPace: sharing.sharedPace, registering: registering)
    #else
      throw RunError(kind: .state, message: StoreSharing.notBuilt(url))
    #endif
  }

  /// The database a configured path names, and a JSON state of an earlier version to import
  /// into it: `state.path` ending in `.json` names the JSON, and the database beside it takes
  /// its name with `.db`; the default `clarissa.db` imports a `clarissa-state.json` (the old
  /// default) found beside it. Nil when there is nothing to import.
  public static func locate(_ configured: String) -> (database: String, legacy: String?) {
    let manager = FileManager.default
    if configured.hasSuffix(".json") {
      let database = String(configured.dropLast(".json".count)) + ".db"
      return (database, manager.fileExists(atPath: configured) ? configured : nil)
    }
    let folder = (configured as NSString).deletingLastPathComponent
    let old = folder.isEmpty ? "clarissa-state.json" : folder + "/clarissa-state.json"
    let importable = !manager.fileExists(atPath: configured) && manager.fileExists(atPath: old)
    return (configured, importable ? old : nil)
  }

  /// A store to read: the file read-only, or (no file yet) one in memory, holding the JSON
  /// state's listings when there is one to import, so a dry run judges as the real run will.
  private static func reader(_ path: String, _ legacy: String?, _ config: Config?) throws
    -> ListingStore
  {
    if FileManager.default.fileExists(atPath: path) {
      return try ListingStore.open(path: path, readOnly: true)
    }
    let store = try ListingStore.open(path: ":memory:", readOnly: false)
    if let legacy { try store.importLegacy(jsonFile: legacy, sites: sites(of: config)) }
    return store
  }

  /// Imports the JSON state, then renames it `<name>.imported`: imported once, never again.
  private static func importing(_ legacy: String, into store: ListingStore, config: Config?)
    throws
  {
    try store.importLegacy(jsonFile: legacy, sites: sites(of: config))
    if rename(legacy, legacy + ".imported") != 0 {
      throw RunError(
        kind: .state,
        message: "imported '\(legacy)', but cannot rename it to '\(legacy).imported': "
          + String(cString: strerror(errno)) + "; rename or remove it by hand")
    }
  }

  /// Search name -> site id, for the ids of a JSON state (none without a config).
  private static func sites(of config: Config?) -> [String: String] {
    Dictionary((config?.searches ?? []).map { ($0.name, $0.site) }) { first, _ in first }
  }

  /// Releases the lock and hands over the store, to be kept open by the caller.
  func releasing() -> any ListingMemory {
    close()
    return memory
  }

  /// Releases the lock; the store closes when the last reference goes.
  public func close() { lock?.release() }
}

/// How a PostgreSQL store is reached and shared: from `state.password_file`, `state.lease` and
/// `state.politeness`.
public struct StoreSharing: Sendable {
  /// The password, read from `state.password_file` (nil: the URL's, PGPASSWORD or ~/.pgpass).
  public var password: String?
  /// Seconds a worker holds the sources and deliveries it took.
  public var lease: Double
  /// One pace per host for all workers (`politeness: shared`).
  public var sharedPace: Bool

  /// Creates settings.
  public init(password: String? = nil, lease: Double = 300, sharedPace: Bool = true) {
    self.password = password
    self.lease = lease
    self.sharedPace = sharedPace
  }

  /// The settings of `state`, the password read from its file (`resolve` makes the file's
  /// path relative to the config's folder).
  public init(_ state: StateSettings, resolve: (String) -> String) throws {
    var password: String?
    if let file = state.passwordFile {
      let path = resolve(file)
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw RunError(
          kind: .state,
          message: "cannot read the PostgreSQL password file '\(path)' (state.password_file)")
      }
      password = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
    self.init(
      password: password, lease: state.lease.timeInterval,
      sharedPace: state.politeness == .shared)
  }

  /// What a build without PostgreSQL says when asked for it.
  public static func notBuilt(_ url: String) -> String {
    "the store '\(masked(url))' is PostgreSQL, and this clarissa was built without it: build with "
      + "'swift build -c release --traits PostgreSQL' (and libpq-dev installed); see "
      + "docs/scaling.md"
  }

  /// `postgres://user:secret@host/db` shown as `postgres://user:***@host/db`.
  public static func masked(_ url: String) -> String { StoreURL.masked(url) }
}
