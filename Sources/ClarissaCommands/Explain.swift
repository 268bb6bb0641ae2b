internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Sites

/// `clarissa explain --search NAME`: why each listing was kept or dropped, and whether it is new.
struct Explain: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Show, for each listing of a search, which filter kept or dropped it and whether it is new.",
    discussion: """
      Without the network, from the state database: the listings the search's last run kept, \
      judged against the config as it is now (what a changed filter would drop, where each was \
      delivered). Listings a run drops are not kept: --fetch asks the search's sites now, and \
      --replay DIR reads a recording (a run's --record DIR), each showing every listing.

      Each listing is printed with the filter that decided (or the price range), what each fact \
      and place filter made of it (rooms 1.5 < min 2, floor area unknown: kept (missing: keep), \
      3.4 km from work > 3 km), and the verdict a run would reach, through the same stages: \
      new, held, seen since a date (and where it was delivered), would be recorded silently, or \
      ignored. Nothing is changed.

      Examples:
        clarissa explain --search ipads
        clarissa explain --search ipads --fetch
        clarissa run --search ipads --force --record rec/
        clarissa explain --search ipads --replay rec/ --only-kept
      """
  )

  @Option(help: ArgumentHelp("The search to explain.", valueName: "name"))
  var search: String

  @OptionGroup var source: SourceOptions

  @Flag(help: "Show only listings that pass the filters.")
  var onlyKept = false

  @Flag(help: "Ask the search's sites now (without it: the last run's listings, from the store).")
  var fetch = false

  func run() async throws {
    let (configuration, _, sites) = try source.loadConfig(quiet: true)
    let runner = try source.runner(configuration, sites: sites, delivering: false)
    let explanation: Explanation
    do {
      explanation =
        fetch || source.replay != nil
        ? try await runner.explain(search: search, now: Date())
        : try await runner.explainFromStore(search: search, now: Date())
    } catch let error as RunError {
      Terminal.error("error: \(error.message)\n")
      throw (error.kind == .usage ? ExitStatus.usage : ExitStatus.stateUnusable).exitCode
    }
    var lines: [String] = []
    if let lastRun = explanation.fromStore {
      lines.append(
        "from the state database: the listings the last run (\(Self.clock(lastRun))) kept, judged "
          + "by the config as it is now; those it dropped are not kept (--fetch asks the sites)")
    }
    lines += Self.lines(explanation, onlyKept: onlyKept)
    Terminal.output(lines.joined(separator: "\n") + "\n")
    if !explanation.failures.isEmpty { throw ExitStatus.sourcesFailed.exitCode }
  }

  /// Each listing with its mark, the filter that decided and its verdict, then the counts.
  static func lines(_ explanation: Explanation, onlyKept: Bool) -> [String] {
    let paint = Terminal.wantsColor(fileDescriptor: STDOUT_FILENO)
    var lines: [String] = []
    for entry in explanation.entries where entry.accepted || !onlyKept {
      let mark =
        entry.accepted
        ? (paint ? "\u{1B}[32m✓\u{1B}[0m" : "✓") : (paint ? "\u{1B}[31m✗\u{1B}[0m" : "✗")
      let listing = ListingCheck.shown(entry.listing)
      let price = Money.format(listing).map { $0 + "  " } ?? ""
      lines.append("\(mark) \(price)\(listing.title)")
      lines.append("    \(entry.reason); \(entry.status)")
      for signal in entry.listing.signals {
        lines.append("    ⚠ \(signal.kind.rawValue): \(SafeText.line(signal.text))")
      }
      lines.append("    \(listing.url)")
    }
    let kept = explanation.entries.filter(\.accepted).count
    let new = explanation.entries.filter { $0.verdict == .new }.count
    lines.append("\(explanation.entries.count) listings, \(kept) pass the filters, \(new) new")
    for failure in explanation.failures { lines.append("failed: \(failure)") }
    return lines
  }

  static func clock(_ date: Date) -> String {
    DateFormat.iso8601(zone: .current).string(from: date)
  }
}
