internal import ArgumentParser
internal import ClarissaCore
internal import ClarissaEngine
internal import ListingStore

extension StateCommand {
  /// `clarissa state prune`: retention now, rather than at the end of the next run.
  struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Forget listings not seen for state.retention, now.",
      discussion: """
        Every run does this at its end; this does it at once. Removes what no search has seen \
        for state.retention (90 days by default): the sightings with their deliveries, held \
        and recent rows, then the listings no search sees any more with their price history; \
        also ended cool-downs and recent listings beyond 500 per search. A starred listing \
        ('clarissa star ID') keeps its rows, and marks are never removed. Prints what went. \
        The runs' lock is held meanwhile. --retention overrides the config's.

        Examples:
          clarissa state prune
          clarissa state prune --retention 30d
        """
    )

    @OptionGroup var options: StateOptions

    @Option(
      help: ArgumentHelp(
        "Keep listings seen within this long (e.g. 30d, 12h).", valueName: "interval"))
    var retention: String?

    func validate() throws {
      if let retention, Interval(parsing: retention) == nil {
        throw ValidationError("--retention takes an interval such as 30d or 12h")
      }
    }

    func run() throws {
      let clock = options.clock
      let counts = try options.writing { store, configuration in
        let kept =
          retention.flatMap(Interval.init(parsing:))
          ?? configuration?.state.retention ?? .days(90)
        return try store.prune(now: clock, retention: kept.timeInterval)
      }
      if let counts { print("pruned: \(counts)") }
    }
  }
}
