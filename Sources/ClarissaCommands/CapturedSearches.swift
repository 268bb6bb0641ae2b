internal import ActionKeys
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Curl
internal import Foundation
internal import Serve
internal import SiteFormat
internal import Synchronization

/// A page captured from the person's browser read into the searches that have it: what `serve`
/// and `watch --http` hand the app (``CaptureHandling``). The config is read again at each
/// capture (an edit counts at once); the searches whose pasted `url:` is the page, or one of
/// whose requests is the page's address, are each run as `clarissa run --search NAME` would run
/// them, with the engine's own runner, over a fetcher that answers that request with the
/// captured HTML (``CapturedFetcher``): judged, announced through their channels, recorded.
struct CapturedSearches: CaptureHandling {
  /// The config and state as the command was given them.
  let source: SourceOptions
  /// A search's first reading announces its listings (`watch --notify-first-run`); else it
  /// primes the search, as a run does.
  let notifyFirstRun: Bool

  func recognise(_ url: String) -> CapturedPage {
    let (loaded, catalog, _) = source.readConfig(colored: false)
    return Self.recognise(url, searches: loaded.config?.searches ?? [], sites: catalog).page
  }

  func capture(url: String, html: [UInt8]) -> CaptureReport {
    let box = Mutex<CaptureReport?>(nil)
    let done = DispatchSemaphore(value: 0)
    let source = self.source
    let notifyFirstRun = self.notifyFirstRun
    // A handler's thread (NIO's pool, not Swift's own) waits for the run.
    Task {
      let report = await Self.capture(
        url: url, html: html, source: source, notifyFirstRun: notifyFirstRun)
      box.withLock { $0 = report }
      done.signal()
    }
    done.wait()
    return box.withLock { $0 } ?? CaptureReport(page: .unknown, problem: "the capture was lost")
  }

  /// The page read for each search that has it, one run each.
  static func capture(
    url: String, html: [UInt8], source: SourceOptions, notifyFirstRun: Bool
  ) async -> CaptureReport {
    let (loaded, catalog, _) = source.readConfig(colored: false)
    guard let config = loaded.config else {
      return CaptureReport(
        page: .unknown, problem: "the config has errors: nothing was read (see the searches page)")
    }
    let (page, matched) = recognise(url, searches: config.searches, sites: catalog)
    guard case .search(_, _, readsPage: true) = page else { return CaptureReport(page: page) }
    var report = CaptureReport(page: page)
    for (search, request) in matched {
      do {
        report.searches.append(
          try await run(
            search, answering: request, with: html, config: config, sites: catalog,
            source: source, notifyFirstRun: notifyFirstRun))
      } catch let error as RunError {
        report.problem = error.message
      } catch {
        report.problem = "\(search.name): \(error)"
      }
    }
    return report
  }

  private static func run(
    _ search: Search, answering request: RequestSpec, with html: [UInt8], config: Config,
    sites: SiteCatalog, source: SourceOptions, notifyFirstRun: Bool
  ) async throws -> CaptureReport.Counts {
    var settings = source.schedulerSettings(config)
    // Nobody is asked for the page; the services and photos keep their own pace per host.
    settings.delayOverride = 0
    let runner = try source.runner(
      config, sites: sites, settings: settings,
      fetching: { CapturedFetcher(request: request, body: html, live: $0) })
    let options = RunOptions(only: search.name, notifyFirstRun: notifyFirstRun, lockWait: 30)
    let result = try await runner.run(options).commit()
    let outcome = result.searches.first { $0.name == search.name }
    let read = outcome?.fetched ?? 0
    let new = outcome?.new.count ?? 0
    let primed = outcome?.primed ?? 0
    let matched = outcome?.matched ?? 0
    let folded = (outcome?.folded.count ?? 0) + (outcome?.onOtherSites ?? 0)
    return CaptureReport.Counts(
      search: search.name, read: read, new: new,
      known: max(0, matched - new - primed - folded), primed: primed,
      filtered: max(0, read - matched),
      announced: result.channels.values.reduce(0) { $0 + $1.delivered },
      failures: (outcome?.failures ?? []) + result.blocks)
  }

  /// What `text` is: a search page of a site, and the searches that have it with the request
  /// of each that the page answers.
  static func recognise(_ text: String, searches: [Search], sites: SiteCatalog) -> (
    page: CapturedPage, matched: [(Search, RequestSpec)]
  ) {
    guard let url = SearchURL(text) else { return (.unknown, []) }
    var matched: [(Search, RequestSpec)] = []
    for search in searches {
      guard let site = sites.site(search.site) else { continue }
      let requests = site.requests(for: search)
      if let pasted = search.url, same(pasted, url), let first = requests.first {
        matched.append((search, first))
      } else if let own = requests.first(where: { SearchURL($0.url).map { same($0, url) } ?? false }
      ) {
        matched.append((search, own))
      }
    }
    if let (search, request) = matched.first, let site = sites.site(search.site) {
      let readsPage = readsHTML(site, request)
      return (
        .search(
          site: site.displayName, searches: matched.map(\.0.name), readsPage: readsPage),
        matched.filter { entry in sites.site(entry.0.site).map { readsHTML($0, entry.1) } ?? false }
      )
    }
    var refusal: CapturedPage?
    for site in sites.all {
      switch site.readSearchURL(url) {
      case .search?: return (.newSearch(site: site.displayName), [])
      case .refused(let reason)?:
        refusal = refusal ?? .refused(site: site.displayName, reason: reason)
      case nil: continue
      }
    }
    return (refusal ?? .unknown, [])
  }

  /// The same page: host, path and query's pairs (in any order), the fragment aside.
  static func same(_ a: SearchURL, _ b: SearchURL) -> Bool {
    a.host == b.host && a.path == b.path
      && a.query.map(\.written).sorted() == b.query.map(\.written).sorted()
  }

  /// Whether the site reads the request's answer as an HTML page (a page the browser shows):
  /// a declared site whose first request is read `as: html`, a Swift one in mode `html`.
  static func readsHTML(_ site: any FeedSource, _ request: RequestSpec) -> Bool {
    if let declared = site as? any HTMLPageReading { return declared.readsHTMLPages }
    return request.mode == "html"
  }
}

/// The fetcher of a capture: the search's request is answered with the captured page (200,
/// HTML); another request to that page's host is not made (a walled site would only block it):
/// it fails as a request a recording lacks does; everything else (the geocoder, a routing
/// engine, photos on other hosts) goes to `live`, as in a run.
struct CapturedFetcher: Fetcher {
  let request: RequestSpec
  let body: [UInt8]
  let live: any Fetcher

  func fetch(_ asked: RequestSpec, headers: [String: String]) async -> Result<
    HTTPResponse, FetchError
  > {
    if asked.url == request.url {
      return .success(
        HTTPResponse(
          status: 200, headers: ["content-type": "text/html; charset=utf-8"], body: body,
          finalURL: asked.url))
    }
    if let host = SearchURL(asked.url)?.host, host == SearchURL(request.url)?.host {
      return .failure(
        FetchError(.notRecorded, "not captured: \(asked.url) (capture that page too)"))
    }
    return await live.fetch(asked, headers: headers)
  }
}

extension SourceOptions {
  /// What `serve` and `watch --http` hand the app for `/capture`: the token's file
  /// (`clarissa-capture.key` in the action key's folder) and the searches' reader.
  func captureDesk(_ serve: ServeSettings?, statePath: String, notifyFirstRun: Bool) -> CaptureDesk
  {
    let folder = (actionKeyPath(serve, statePath: statePath) as NSString)
      .deletingLastPathComponent
    return CaptureDesk(
      handler: CapturedSearches(source: self, notifyFirstRun: notifyFirstRun),
      tokenFile: folder.isEmpty
        ? CaptureToken.fileName : (folder as NSString).appendingPathComponent(CaptureToken.fileName)
    )
  }
}
