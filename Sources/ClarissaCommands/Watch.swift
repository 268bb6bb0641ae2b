internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Dispatch
internal import Foundation
internal import ListingStore
internal import Serve
internal import Sites
internal import Synchronization
internal import WebServer

/// `clarissa watch`: run searches at their own intervals until stopped.
struct Watch: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Keep running: each search at its own interval, until stopped.",
    discussion: """
      Sleeps until the next search is due (with a little jitter), runs the due searches as \
      `clarissa run` would (same state database, same lock, same quiet hours and delivery), \
      prints what is new, and sleeps again. The database stays open; the lock is held only \
      while a run is under way, so a manual `clarissa run` can use it in between.

      Signals: SIGINT or SIGTERM stop it cleanly (a run in progress is cut short, what it found \
      is saved); SIGHUP re-reads the config (a broken new config keeps the old one running and \
      says why). A systemd unit and a cron line are in docs/scheduling.md.

      With --http ADDR it also serves the web interface of `clarissa serve` (pages, /api, \
      /healthz, and /metrics counting this process's rounds); the same access rules apply.

      With serve.url in the config, it also reads the presses of the Telegram channels' \
      Viewed, Hide and Star buttons (the Bot API's getUpdates), marks the listings and answers \
      them (docs/notifications.md).

      Examples:
        clarissa watch
        clarissa watch --config ~/ads/searches.yaml --quiet
        clarissa watch --http 127.0.0.1:8421
        clarissa watch --replay Fixtures/replay/default --notify-first-run
      """
  )

  @OptionGroup var source: SourceOptions

  @Flag(help: "Notify a new search's current listings instead of priming it silently.")
  var notifyFirstRun = false

  @Flag(name: [.short, .long], help: "Print only new listings.")
  var quiet = false

  @Option(help: "Also serve the web interface (as `clarissa serve`) on HOST:PORT.")
  var http: String?

  @OptionGroup var access: AccessOptions

  @OptionGroup(title: "Map (with --http)") var map: MapOptions

  func run() async throws {
    let signals = SignalFlags()
    var current = try load()
    let metrics = Metrics()
    var session: ServedSession?
    if let http {
      let served = ServedSetup.config(source, printing: false)
      let started = try ServedSetup.start(
        address: http, access: access.orConfigured(current.config.serve, source),
        statePath: source.statePath(current.config), config: served.served, map: map.settings,
        metrics: metrics, sharing: served.sharing,
        actionKey: try source.servedActionKey(
          current.config.serve, statePath: source.statePath(current.config)),
        publicURL: current.config.serve?.url,
        usedActionsFile: source.usedActionsPath(
          current.config.serve, statePath: source.statePath(current.config)),
        capture: source.captureDesk(
          current.config.serve, statePath: source.statePath(current.config),
          notifyFirstRun: notifyFirstRun))
      started.app.searchEditing = SearchFileEditor.forServing(
        source, settings: current.config.serve)
      session = started
      log("serving \(started.address)")
    }
    defer { session?.server.stop() }
    // Presses of the Telegram buttons (serve.url set): read and answered beside the runs.
    let answering = try TelegramButtons.readers(current.config, source: source).map {
      TelegramButtons.answer($0) { signals.stopRequested }
    }
    defer { answering.forEach { $0.cancel() } }
    log("watching \(current.config.searches.filter(\.enabled).count) searches (pid \(getpid()))")
    // A change of the file (the page's editor, a person) is read as a SIGHUP is.
    let configFile = ConfigChangeWatch(path: source.config)
    while !signals.stopRequested {
      if configFile.changed() { signals.requestReload() }
      if signals.takeReload() {
        do {
          current = try load()
          log("config re-read: \(current.config.searches.count) searches")
        } catch {
          log("the new config has errors; still running the previous one")
        }
        // The pages show the new config's problems, if any, while the old one runs.
        if let session {
          session.app.config = ServedSetup.reloaded(source, keeping: session.app.config)
        }
      }
      let runner = current.runner
      let options = RunOptions(notifyFirstRun: notifyFirstRun, lockWait: 30)
      let quiet = self.quiet
      let pass = Task {
        let started = Date()
        let pending = try await runner.run(options)
        Self.present(pending.result, quiet: quiet, searches: runner.searchesByName)
        let result = try pending.commit()
        metrics.record(result, seconds: Date().timeIntervalSince(started), finished: Date())
        return result
      }
      let outcome = await withTaskCancellationHandler {
        await race(pass, signals: signals)
      } onCancel: {
        pass.cancel()
      }
      if case .failure(let error as RunError) = outcome {
        // Another run (cron, a manual one) held the lock for the whole wait: the searches stay
        // due, and the next pass waits for it again.
        guard error.kind == .busy else {
          log("error: \(error.message)")
          throw ExitStatus.stateUnusable.exitCode
        }
        log("skipped this pass: \(error.message)")
      }
      if signals.stopRequested { break }
      let wake: Date
      do {
        wake = try runner.nextWake(now: Date())
      } catch let error as RunError {
        log("error: \(error.message)")
        throw ExitStatus.stateUnusable.exitCode
      }
      if !quiet { log("next check \(Self.clock(wake))") }
      var ticks = 0
      while Date() < wake && !signals.stopRequested && !signals.reloadPending {
        try? await Task.sleep(nanoseconds: 100_000_000)
        ticks += 1
        if ticks % 10 == 0, configFile.changed() { signals.requestReload() }
      }
    }
    log("stopped")
  }

  /// Waits for the run, cancelling it if a stop is asked for meanwhile.
  private func race(_ pass: Task<RunResult, Error>, signals: SignalFlags) async -> Result<
    RunResult, Error
  > {
    let watchdog = Task {
      while !Task.isCancelled {
        if signals.stopRequested {
          pass.cancel()
          return
        }
        try? await Task.sleep(nanoseconds: 50_000_000)
      }
    }
    defer { watchdog.cancel() }
    return await pass.result
  }

  private struct Loaded: Sendable {
    let config: Config
    let runner: Runner
  }

  /// The config and the runner built on it, with one fetcher (one libcurl thread and its kept
  /// connections) and the store kept open for the life of the config, ended when a reload
  /// replaces it.
  private func load() throws -> Loaded {
    let (configuration, _, sites) = try source.loadConfig(quiet: quiet)
    do {
      return Loaded(
        config: configuration,
        runner: try source.runner(configuration, sites: sites).keepingStoreOpen())
    } catch let error as RunError {
      log("error: \(error.message)")
      throw ExitStatus.stateUnusable.exitCode
    }
  }

  private static func present(
    _ result: RunResult, quiet: Bool, searches: [String: Search]
  ) {
    let text = RunReport.text(
      result, colored: Terminal.wantsColor(fileDescriptor: STDOUT_FILENO), listingsOnly: quiet,
      searches: searches)
    Terminal.output(quiet ? text : "[\(clock(result.time))] " + text)
  }

  private func log(_ message: String) {
    Terminal.error("clarissa watch: \(message)\n")
  }

  static func clock(_ date: Date) -> String {
    DateFormat.pattern("yyyy-MM-dd HH:mm:ss", zone: .current).string(from: date)
  }
}

/// SIGINT/SIGTERM ask for a stop, SIGHUP for a reload; read from any thread.
final class SignalFlags: Sendable {
  /// Whether a stop, and a reload, were asked for: set by the signal handlers.
  private let flags: Flags
  /// Kept so that the signal handlers stay installed.
  private let sources: Mutex<[DispatchSourceSignal]>

  /// The flags, shared with the handlers.
  private final class Flags: Sendable {
    let asked = Mutex((stop: false, reload: false))
  }

  init() {
    let flags = Flags()
    var sources: [DispatchSourceSignal] = []
    for (number, isReload) in [(SIGINT, false), (SIGTERM, false), (SIGHUP, true)] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        flags.asked.withLock {
          if isReload { $0.reload = true } else { $0.stop = true }
        }
      }
      source.resume()
      sources.append(source)
    }
    self.flags = flags
    self.sources = Mutex(sources)
  }

  var stopRequested: Bool { flags.asked.withLock { $0.stop } }
  var reloadPending: Bool { flags.asked.withLock { $0.reload } }

  /// Asks for a reload, as SIGHUP does.
  func requestReload() {
    flags.asked.withLock { $0.reload = true }
  }

  func takeReload() -> Bool {
    flags.asked.withLock { asked in
      defer { asked.reload = false }
      return asked.reload
    }
  }
}
