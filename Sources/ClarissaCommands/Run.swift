internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Sites

/// `clarissa run`: fetch every due search, report and deliver what is new, remember it.
struct Run: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Fetch due searches, report and deliver new listings, and remember them.",
    discussion: """
      Runs every search whose interval has passed since it last ran (or all with --force, or \
      one with --search), politely: one request at a time per host, spaced by the site's delay. \
      A host that refused (403) is left alone for 6 hours: --search NAME --force, or a changed \
      request URL, asks it once; 'clarissa state cooldowns' lists and clears them. \
      A search's first run records its current listings without notifying (priming), unless \
      --notify-first-run. Quiet hours hold or skip searches as the config says. The state \
      database (state.path in the config, clarissa.db by default) is locked for the run; each \
      search's listings are recorded as soon as they are judged, and each delivery the moment \
      its channel accepts it. A JSON state of an earlier version is imported on the first run.

      Exit status: 0 done; 2 config errors; 3 some sources failed (with --exit-code or in GitHub \
      Actions, also every due host cooling down); 4 some deliveries failed \
      (retried next run); 5 state locked, corrupt or newer; 10 new listings found (only with \
      --exit-code); 64 usage. Failures take precedence over 10.

      Examples:
        clarissa run
        clarissa run --search aeron-chairs --dry-run
        clarissa run --replay Fixtures/replay/default --dry-run --notify-first-run
        clarissa run --record recordings/ --force
        clarissa run --format json --exit-code > report.json
      """
  )

  @OptionGroup var source: SourceOptions

  @Flag(help: "Fetch and show what would be new; change no state, send nothing.")
  var dryRun = false

  @Flag(help: "Record every current listing as seen without notifying anything.")
  var prime = false

  @Flag(help: "Run every enabled search now, due or not.")
  var force = false

  @Option(help: ArgumentHelp("Run only this search, now (even if disabled).", valueName: "name"))
  var search: String?

  @Flag(help: "Notify a new search's current listings instead of priming it silently.")
  var notifyFirstRun = false

  @Flag(
    help: ArgumentHelp(
      "Read every item of every feed, even those unchanged since the last run (which are "
        + "otherwise passed over unread: docs/performance.md, \"Unchanged items\")."))
  var readEveryItem = false

  @Option(help: ArgumentHelp("Save every response into a recording folder.", valueName: "dir"))
  var record: String?

  @Option(help: "Report format: text, json or markdown.")
  var format: ReportFormat = .text

  @Flag(name: [.short, .long], help: "Print only new listings (no summary, no progress).")
  var quiet = false

  @Flag(help: "Exit with status 10 when new listings were found.")
  var exitCode = false

  @Option(
    help: ArgumentHelp(
      "Seconds to wait for another run (a watch, an earlier cron run) to release the state "
        + "database's lock before exiting 5.", valueName: "seconds"))
  var lockWait: Double = 5

  @Option(help: .hidden)
  var now: String?

  enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown
  }

  func validate() throws {
    if source.replay != nil && record != nil {
      throw ValidationError("--replay and --record cannot be used together")
    }
    guard lockWait >= 0, lockWait <= 86_400 else {
      throw ValidationError("--lock-wait takes seconds from 0 to 86400")
    }
    if let now, Self.parseDate(now) == nil {
      throw ValidationError("--now takes an ISO 8601 time such as 2026-03-08T01:30:00-05:00")
    }
  }

  func run() async throws {
    let (configuration, diagnostics, sites) = try source.loadConfig(quiet: quiet)
    GitHubActions.annotate(
      diagnostics.filter { $0.severity == .warning }.map(\.shownMessage), json: format == .json)

    let runner = try source.runner(
      configuration, sites: sites, settings: settings(configuration), record: record)
    var options = RunOptions(
      now: now.flatMap(Self.parseDate), force: force, only: search, dryRun: dryRun,
      prime: prime, notifyFirstRun: notifyFirstRun, lockWait: lockWait)
    options.passesUnchanged = !readEveryItem
    let result: RunResult
    do {
      let pending = try await runner.run(options)
      // Shown first: this is the terminal channel's delivery, which the commit then records.
      present(pending.result, searches: configuration.searchesByName)
      result = try pending.commit()
    } catch let error as RunError {
      Terminal.error("error: \(error.message)\n")
      throw (error.kind == .usage ? ExitStatus.usage : ExitStatus.stateUnusable).exitCode
    }
    for problem in result.outputProblems { Terminal.error("warning: \(problem)\n") }
    try finish(result, searches: configuration.searchesByName)
  }

  private func settings(_ configuration: Config) -> SchedulerSettings {
    var settings = source.schedulerSettings(configuration)
    if !quiet, Terminal.wantsColor(fileDescriptor: STDERR_FILENO) {
      settings.progress = { done, total in
        if total > 3 {
          Terminal.error(done == total ? "\r\u{1B}[K" : "\rfetching \(done)/\(total)…")
        }
      }
    }
    return settings
  }

  /// Shows the report: this is the terminal channel's delivery, before the state records it.
  private func present(_ result: RunResult, searches: [String: Search]) {
    switch format {
    case .json: Terminal.output(RunReport.json(result))
    case .markdown: Terminal.output(RunReport.markdown(result, searches: searches))
    case .text:
      let text = RunReport.text(
        result, colored: Terminal.wantsColor(fileDescriptor: STDOUT_FILENO), listingsOnly: quiet,
        searches: searches)
      Terminal.output(text)
    }
  }

  private func finish(_ result: RunResult, searches: [String: Search]) throws {
    let warnings =
      result.searches.flatMap { search in search.failures.map { "\(search.name): \($0)" } }
      + result.blocks
      + result.deliveryFailures
    GitHubActions.annotate(warnings, json: format == .json)
    GitHubActions.appendSummary { RunReport.markdown(result, searches: searches) }
    // Every due search's hosts cooling down means nothing was checked: not green in CI.
    let coolingFails = result.everySourceCoolingDown && (exitCode || GitHubActions.active)
    if result.sourcesFailed || coolingFails
      || !result.blocks.isEmpty && result.searches.contains(where: { !$0.failures.isEmpty })
    {
      throw ExitStatus.sourcesFailed.exitCode
    }
    if !result.deliveryFailures.isEmpty { throw ExitStatus.notificationFailed.exitCode }
    if exitCode, !result.newListings.isEmpty { throw ExitStatus.newListings.exitCode }
  }

  static func parseDate(_ text: String) -> Date? {
    DateFormat.internet.date(from: text) ?? DateFormat.internetFractional.date(from: text)
  }
}

extension OutputPaths {
  /// The config's `output` paths resolved by `resolve`; nil when none is set.
  init?(_ settings: OutputSettings, resolve: (String) -> String) {
    guard settings.atom != nil || settings.html != nil else { return nil }
    self.init(atomFolder: settings.atom.map(resolve), htmlFile: settings.html.map(resolve))
  }
}
