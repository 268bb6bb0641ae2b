internal import ArgumentParser
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Presentation

/// `clarissa show ID`: one listing's whole story.
struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract:
      "Show one listing: every price it had, the searches that saw it, its reposts, and which channels took it.",
    discussion: """
      ID is the listing's id, or SITE:ID when two sites use the same id. Reads the state \
      database without the lock. The marks a person set (starred, hidden, the note: \
      'clarissa star', 'hide', 'note') are said under the listing. Under its prices, a \
      sparkline of them and of its search's weekly median price per m² (or price), as the \
      listing page draws them. JSON (--format json) is documented in docs/listings.md.

      Examples:
        clarissa show 7931742798
        clarissa show craigslist:7931742798 --format json
      """
  )

  @Argument(help: ArgumentHelp("The listing's id, or SITE:ID.", valueName: "id"))
  var id: String

  @OptionGroup var options: StateOptions

  @Option(help: "Output: text or json.")
  var format: Format = .text

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

  func run() throws {
    let now = options.clock
    let config = options.configured()
    let read = try options.reading { store, _ -> (ListingHistory, PriceChart)? in
      try store.history(try ListingIDs.key(id, in: store)).map {
        var history = try DealContextBook(memory: store, now: now).annotated($0)
        try StoredCommute.attach(&history, config: config, memory: store)
        return (history, try PriceChart.read($0, in: store))
      }
    }
    guard let read else { return }
    guard let (found, chart) = read else {
      Terminal.error("error: the state database has no listing '\(id)'\n")
      throw ExitStatus.failure.exitCode
    }
    print(
      format == .json
        ? ListingsOutput.json(found)
        : ListingsOutput.show(
          found, now: now, searches: config?.searchesByName ?? [:], chart: chart)
          + TextChangesSection.text(found, now: now),
      terminator: format == .json ? "\n" : "")
  }
}
