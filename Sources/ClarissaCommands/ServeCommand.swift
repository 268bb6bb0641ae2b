internal import ActionKeys
internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Serve
internal import Sites
internal import Synchronization
internal import WebServer

/// `clarissa serve`: the listings in a browser.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Show the listings in a browser, with what you have viewed (and /api, /metrics).",
    discussion: """
      Serves a web interface over the state database: the searches with their unviewed \
      listings, last and next run, failures and cool-downs; each search's listings newest \
      first as cards; a listing's page with its price history and a button that opens it on \
      its site and marks it viewed; filters; "mark all viewed"; a map of the listings that \
      have coordinates (Leaflet from Debian's libjs-leaflet and libjs-leaflet.markercluster, \
      tiles from OpenStreetMap unless --map-tiles says otherwise). The same data is under /api/ \
      as JSON; /healthz and /metrics (Prometheus) are for monitoring. docs/serve.md has it all.

      It reads the config for the searches' names and intervals; a config with errors is shown \
      with its problems instead of stopping the server. It does not run searches: use \
      `clarissa watch --http ADDR` for one process that watches and serves.

      Safety: it listens on 127.0.0.1:8421 and answers only requests naming that address (a \
      guard against DNS rebinding). Any other address needs a token (--token or --token-file), \
      asked of every request; it refuses to start without one. Every change is a POST that \
      carries the page's token. The config's `serve:` section gives --http and --token-file \
      when they are not given (serve.address, serve.token_file); with serve.url, /act/TOKEN \
      answers the notifications' Viewed, Hide and Star buttons (signed links, no session).

      Examples:
        clarissa serve
        clarissa serve --http 127.0.0.1:9000 --config ~/ads/searches.yaml
        clarissa serve --http 0.0.0.0:8421 --token-file ~/.config/clarissa/token
      """
  )

  @OptionGroup var source: SourceOptions

  @Option(
    help: ArgumentHelp(
      "The address to listen on: HOST:PORT, such as 127.0.0.1:8421 or [::1]:8421 (default: "
        + "serve.address from the config, else 127.0.0.1:8421)."))
  var http: String?

  @OptionGroup var access: AccessOptions

  @OptionGroup(title: "Map") var map: MapOptions

  func run() async throws {
    let signals = SignalFlags()
    let loaded = ServedSetup.config(source)
    let session = try ServedSetup.start(
      address: http ?? loaded.serve?.address ?? "127.0.0.1:8421",
      access: access.orConfigured(loaded.serve, source), statePath: loaded.statePath,
      config: loaded.served, map: map.settings, sharing: loaded.sharing,
      actionKey: try source.servedActionKey(loaded.serve, statePath: loaded.statePath),
      publicURL: loaded.serve?.url,
      usedActionsFile: source.usedActionsPath(loaded.serve, statePath: loaded.statePath),
      capture: source.captureDesk(
        loaded.serve, statePath: loaded.statePath, notifyFirstRun: false))
    session.app.searchEditing = SearchFileEditor.forServing(source, settings: loaded.serve)
    Terminal.error("clarissa serve: \(session.address) (pid \(getpid()); Ctrl-C stops)\n")
    while !signals.stopRequested {
      if signals.takeReload() {
        session.app.config = ServedSetup.reloaded(source, keeping: session.app.config)
        Terminal.error("clarissa serve: config re-read\n")
      }
      try? await Task.sleep(nanoseconds: 100_000_000)
    }
    session.server.stop()
    Terminal.error("clarissa serve: stopped\n")
  }
}

/// `--token`, `--token-file`: what `serve` and `watch --http` ask of every request.
struct AccessOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "A token every request must carry: at least 22 letters, digits, '-', '_', '.', '~' (32 "
        + "if hex digits only), such as `openssl rand -hex 24` makes.",
      discussion: "Needed for an address that is not loopback. A browser gives it once as "
        + "?token=... or on the sign-in page and keeps it in a cookie; programs send "
        + "'Authorization: Bearer TOKEN'. Prefer --token-file: a command line is visible to "
        + "other users of the machine."))
  var token: String?

  @Option(help: "A file whose first line is the token (see --token).")
  var tokenFile: String?

  /// These options, or (neither flag given) `serve.token_file` from the config.
  func orConfigured(_ serve: ServeSettings?, _ source: SourceOptions) -> AccessOptions {
    guard token == nil, tokenFile == nil, let file = serve?.tokenFile else { return self }
    var options = self
    options.tokenFile = source.resolve(file)
    return options
  }

  /// The token, read and checked; nil when none was given.
  func resolved() throws -> String? {
    var token = self.token
    if let tokenFile {
      guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
        throw ValidationError("--token-file: cannot read '\(tokenFile)'")
      }
      token =
        text.split(whereSeparator: \.isNewline).first.map {
          $0.trimmingCharacters(in: .whitespaces)
        } ?? ""
    }
    guard let token else { return nil }
    guard Self.isStrong(token) else {
      throw ValidationError(
        "the token must hold 128 bits or more: at least 22 characters of letters, digits, '-', "
          + "'_', '.', '~', or 32 if they are hex digits only. Make one with: "
          + "openssl rand -hex 24 > ~/.config/clarissa/token (then --token-file that file)")
    }
    return token
  }

  /// At least 128 bits a guesser must find: 22 characters of the 66 allowed (6 bits each, of
  /// a random one), or 32 hex digits (4 bits each).
  static func isStrong(_ token: String) -> Bool {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
    guard token.allSatisfy(allowed.contains) else { return false }
    return token.allSatisfy(\.isHexDigit) ? token.count >= 32 : token.count >= 22
  }
}

/// A running web interface.
struct ServedSession {
  let server: HTTPServer
  let app: WebApp
  var address: String { "http://\(server.authority)/" }
}

/// What `serve` and `watch --http` share: reading the config for the pages, and starting.
enum ServedSetup {
  /// The config as the pages show it (problems included), the store it names, and how to
  /// reach that store when it is shared.
  static func config(_ source: SourceOptions, printing: Bool = true) -> (
    served: ServedConfig, statePath: String, sharing: StoreSharing, serve: ServeSettings?
  ) {
    let (loaded, catalog, renderer) = source.readConfig(colored: false)
    let problems = loaded.diagnostics.isEmpty ? "" : renderer.render(loaded.diagnostics)
    if printing, !problems.isEmpty { Terminal.error(problems) }
    let missing =
      FileManager.default.fileExists(atPath: source.config)
      ? "" : "\(source.config): no such file (clarissa init writes a starting one)\n"
    guard let config = loaded.config else {
      return (
        ServedConfig(
          path: source.config, searches: [], problems: missing + problems, hasErrors: true),
        source.state.map { StoreAccess.isURL($0) ? $0 : source.resolve($0) }
          ?? source.resolve(StateSettings().path), StoreSharing(), nil
      )
    }
    let searches = config.searches.map {
      ServedConfig.Search(
        name: $0.name, site: $0.site, interval: $0.interval.timeInterval, enabled: $0.enabled,
        hosts: $0.hosts(sites: catalog), places: $0.places, areas: $0.facts.within,
        areaUnit: $0.facts.shownAreaUnit, near: $0.facts.near,
        commute: $0.facts.commute)
    }
    var served = ServedConfig(
      path: source.config, searches: searches, problems: problems, hasErrors: false)
    served.digests = DigestTiming.timers(config)
    served.routing = config.routing
    return (
      served, source.statePath(config), (try? source.sharing(config)) ?? StoreSharing(),
      config.serve
    )
  }

  /// The config read again on SIGHUP; when it has errors the pages keep the searches of the
  /// one still running and say so above the new one's problems.
  static func reloaded(_ source: SourceOptions, keeping previous: ServedConfig) -> ServedConfig {
    var fresh = config(source, printing: false).served
    if fresh.hasErrors, !previous.hasErrors {
      fresh.searches = previous.searches
      fresh.problems =
        "The file has errors; the previous config is still in use.\n\n" + fresh.problems
    }
    return fresh
  }

  /// Opens the store (its own connection), binds, checks the access rules, and serves.
  static func start(
    address: String, access: AccessOptions, statePath: String, config: ServedConfig,
    map: MapSettings = MapSettings(), metrics: Metrics = Metrics(),
    sharing: StoreSharing = StoreSharing(), actionKey: ActionKey? = nil, publicURL: String? = nil,
    usedActionsFile: String? = nil, capture: CaptureDesk? = nil
  ) throws -> ServedSession {
    let token = try access.resolved()
    let rules = WebApp.Access(token: token, hosts: [], actionKey: actionKey, publicURL: publicURL)
    // A tunnel or proxy on this machine hands on strangers' requests from a loopback address,
    // often with a loopback Host: without a token they would have the whole interface.
    guard token != nil || !rules.tokenAlways else {
      throw ValidationError(
        "serve.url (\(publicURL ?? "")) names a host that is not this machine: whatever reaches "
          + "the server through it could read and change your listings. Give --token-file FILE "
          + "(or serve.token_file); the notifications' buttons need no token")
    }
    // The address first: a refusal touches no file.
    let server: HTTPServer
    let box = AppBox()
    do {
      // The app is set before the server starts; a request before that gets a plain 503.
      // A capture's page may be 5 MiB; the app's screen holds every other body to 256 KiB.
      var limits = HTTPServer.Limits()
      limits.bodyBytes = WebApp.captureBodyLimit
      limits.connectionBodyBytes = WebApp.captureBodyLimit
      server = try HTTPServer(
        address: address, limits: limits, screen: { box.app?.screen($0) }
      ) { request in
        box.app?.handle(request) ?? WebResponse.text("starting\n", status: 503)
      }
    } catch let problem as ServerProblem where problem.cannotListen {
      // Not the command line's fault: a clear line and exit 1, not a usage message.
      Terminal.error("clarissa: \(problem.message)\n")
      throw ExitStatus.failure.exitCode
    } catch {
      throw ValidationError("--http: \(error)")
    }
    guard server.isLoopback || token != nil else {
      server.stop()
      throw ValidationError(
        "--http \(address) is not a loopback address: anyone who can reach it could read and "
          + "change your listings. Give --token-file FILE (or --token), or listen on 127.0.0.1")
    }
    let store: any BrowsableStore
    do {
      store = try openStore(statePath, sharing: sharing)
    } catch {
      server.stop()
      Terminal.error("clarissa: \(error)\n")
      throw ExitStatus.stateUnusable.exitCode
    }
    let app = WebApp(
      store: store, config: config,
      access: WebApp.Access(
        token: token,
        hosts: server.isLoopback
          ? WebApp.Access.loopbackHosts(port: server.port, bound: server.host) : [],
        actionKey: actionKey, publicURL: publicURL,
        usedActionsFile: actionKey == nil ? nil : usedActionsFile),
      metrics: metrics, map: map,
      travelTimes: StoredCommute.travelTimes(store), capture: capture)
    box.app = app
    server.start()
    return ServedSession(server: server, app: app)
  }
}

extension ServedSetup {
  /// A connection of its own to the store, to read and mark: a worker's own connection to a
  /// shared store takes no work.
  static func openStore(_ statePath: String, sharing: StoreSharing) throws -> any BrowsableStore {
    guard StoreAccess.isURL(statePath) else {
      return try ListingStore.open(path: statePath, readOnly: false)
    }
    let access = try StoreAccess.open(
      statePath, writing: false, lockWait: 0, config: nil, sharing: sharing)
    guard let shared = access.memory as? any BrowsableStore else {
      throw StoreProblem("'\(StoreSharing.masked(statePath))' cannot be browsed")
    }
    return shared
  }
}

/// Lets the server's handler reach the app made after the server was bound.
private final class AppBox: Sendable {
  private let made = Mutex<WebApp?>(nil)

  /// The app, once made.
  var app: WebApp? {
    get { made.withLock { $0 } }
    set { made.withLock { $0 = newValue } }
  }
}
