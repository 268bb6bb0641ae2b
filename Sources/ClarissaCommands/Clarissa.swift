import ArgumentParser

/// The `clarissa` command: subcommands for each way the tool is used.
@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
public struct Clarissa: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "clarissa",
    abstract: "Watch classified-ad sites for new listings.",
    discussion: """
      Searches, cities, filters, quiet hours and notification channels live in one YAML file,
      searches.yaml by default (docs/configuration.md). Check it, then run it:

        clarissa validate                   # no network; every problem with its position
        clarissa run                        # due searches; new listings only, once
        clarissa watch                      # keep running, each search at its interval
        clarissa run --replay Fixtures/replay/default --dry-run --notify-first-run

      Understand what happened:

        clarissa explain --search ipads     # which filter kept or dropped each listing
        clarissa notify test phone          # send a sample listing through a channel
        clarissa validate --print-urls      # every request a run would make

      Site adapters and what they read:

        clarissa sites
        clarissa sites craigslist --cities bay
        clarissa inspect saved-response.json --site craigslist

      Exit codes are listed in README.md.
      """,
    version: "0.1.0",
    subcommands: [
      Run.self, Watch.self, Validate.self, Explain.self, Inspect.self, SitesCommand.self,
      NotifyCommand.self,
    ]
  )

  public init() {}

  /// Parses the command line and runs the chosen command, async or not. (Calling `main()` from
  /// another module picks ParsableCommand's synchronous overload, which cannot run `run`.)
  public static func runFromCommandLine() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }
}
