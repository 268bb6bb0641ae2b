import ClarissaConfig
import ClarissaCore
import Foundation

/// What a run is asked to do.
public struct RunOptions: Sendable {
  /// The run's clock (`--now` in tests).
  public var now: Date
  /// Run every enabled search, due or not.
  public var force: Bool
  /// Run only this search (due or not, enabled or not).
  public var only: String?
  /// Fetch and report, but change no state and send nothing.
  public var dryRun: Bool
  /// Record every current listing as seen without notifying.
  public var prime: Bool
  /// Notify a new search's current listings instead of priming it silently.
  public var notifyFirstRun: Bool
  /// How long to wait for another run's lock.
  public var lockWait: Double
  /// The zone report times are shown in (the machine's; fixed in tests).
  public var timeZone: TimeZone = .current

  /// Creates options.
  public init(
    now: Date = Date(), force: Bool = false, only: String? = nil, dryRun: Bool = false,
    prime: Bool = false, notifyFirstRun: Bool = false, lockWait: Double = 5
  ) {
    self.now = now
    self.force = force
    self.only = only
    self.dryRun = dryRun
    self.prime = prime
    self.notifyFirstRun = notifyFirstRun
    self.lockWait = lockWait
  }
}

/// Why a run could not start or finish.
public struct RunError: Error, Sendable, CustomStringConvertible {
  /// Which exit status it maps to.
  public enum Kind: Sendable { case state, usage }
  /// The kind.
  public var kind: Kind
  /// What is wrong.
  public var message: String
  public var description: String { message }
}

/// The pipeline: due searches -> requests -> polite fetching -> listings -> filters -> new
/// against the state -> held or delivered -> state saved atomically. One broken source never
/// stops the others; a listing is marked delivered only after its channel took it.
public struct Runner: Sendable {
  let config: Config
  let sites: SiteCatalog
  let scheduler: RequestScheduler
  let statePath: String
  let channels: [String: any DeliveryChannel]
  let outputs: OutputPaths?

  /// Creates a runner; `channels` maps channel names to senders (the `stdout` kind is the report).
  public init(
    config: Config, sites: SiteCatalog, scheduler: RequestScheduler, statePath: String,
    channels: [String: any DeliveryChannel] = [:], outputs: OutputPaths? = nil
  ) {
    self.config = config
    self.sites = sites
    self.scheduler = scheduler
    self.statePath = statePath
    self.channels = channels
    self.outputs = outputs
  }

  /// Runs once. `present` shows the result (the terminal channel's delivery) before the state
  /// records it: a crash in between repeats a notification, it never loses one.
  public func run(_ options: RunOptions, present: (RunResult) -> Void) async throws -> RunResult {
    let store = StateStore(path: statePath)
    if !options.dryRun {
      do { try store.lock(wait: options.lockWait) } catch let problem as StateStore.Problem {
        throw RunError(kind: .state, message: problem.message)
      }
    }
    defer { store.unlock() }
    var state: State
    do { state = try store.load() } catch let problem as StateStore.Problem {
      throw RunError(kind: .state, message: problem.message)
    }
    if let only = options.only, !config.searches.contains(where: { $0.name == only }) {
      let names = config.searches.map(\.name)
      throw RunError(
        kind: .usage,
        message: "no search named '\(only)'" + Suggestions.hint(for: only, in: names))
    }
    var pass = RunPass(runner: self, options: options, state: state)
    await pass.execute()
    present(pass.result)
    pass.markPresented()
    state = pass.state
    if !options.dryRun {
      state.prune(now: options.now, retention: TimeInterval(config.state.retention.seconds))
      state.keepRecent(config.output.keep, searches: config.searches.map(\.name))
      do { try store.save(state) } catch let problem as StateStore.Problem {
        throw RunError(kind: .state, message: problem.message)
      }
    }
    if !options.dryRun, let outputs {
      var result = pass.result
      result.outputProblems = OutputWriter(paths: outputs, config: config).write(
        state, now: options.now)
      return result
    }
    return pass.result
  }
}

extension State {
  /// Keeps the newest `count` recent listings of each search still in the config.
  mutating func keepRecent(_ count: Int, searches: [String]) {
    let names = Set(searches)
    var kept: [RecentListing] = []
    for name in names {
      kept += recent.filter { $0.search == name }.sorted(by: HTMLPage.newestFirst).prefix(count)
    }
    recent = kept.sorted {
      ($0.found, $0.search, $0.listing.id) > ($1.found, $1.search, $1.listing.id)
    }
  }

  /// Forgets listings not seen for `retention` (by age since last seen, never by count) and
  /// cool-downs that have ended. Expired ids are removed in place: a run forgets a few of a
  /// search's ids, and filtering into a new table held two million-id tables at once (as fast:
  /// about 9 ms either way for a million ids, `.ci/bench state`).
  public mutating func prune(now: Date, retention: TimeInterval) {
    let cutoff = now.addingTimeInterval(-retention)
    for name in Array(searches.keys) {
      guard var search = searches.removeValue(forKey: name) else { continue }
      let expired = search.seen.compactMap { $0.value.lastSeen < cutoff ? $0.key : nil }
      for id in expired { search.seen.removeValue(forKey: id) }
      searches[name] = search
    }
    cooldowns = cooldowns.filter { $0.value.until > now }
  }
}
