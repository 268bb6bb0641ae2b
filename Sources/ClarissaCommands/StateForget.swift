internal import ArgumentParser
internal import ClarissaCore
internal import ListingStore

extension StateCommand {
  /// `clarissa state forget --search NAME`: a search starts afresh.
  struct Forget: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Forget what one search has seen, so that it starts afresh.",
      discussion: """
        Removes the search's run times, sources, sightings, deliveries, held and recent \
        listings. Its next run is its first again: it records the listings it finds without \
        notifying them (add --notify-first-run to that run to be notified of them all). \
        Other searches keep what they saw. The runs' lock is held meanwhile.

        Examples:
          clarissa state forget --search bikes
          clarissa state forget --search bikes && clarissa run --search bikes --notify-first-run
        """
    )

    @OptionGroup var options: StateOptions

    @Option(help: ArgumentHelp("The search to forget.", valueName: "name"))
    var search: String

    func run() throws {
      let summary = try options.writing { store, _ in
        let names = try store.searchNames()
        guard names.contains(search) else {
          Terminal.error(
            "error: the state has nothing of a search '\(search)'"
              + Suggestions.hint(for: search, in: names)
              + " (searches: \(names.isEmpty ? "none" : names.joined(separator: ", ")))\n")
          throw ExitStatus.usage.exitCode
        }
        return try store.forget(search: search)
      }
      if let summary { print("forgot '\(search)': \(summary); its next run is its first") }
    }
  }
}
