import ArgumentParser

/// The `clarissa` command: subcommands for each way the tool is used.
@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
public struct Clarissa: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "clarissa",
    abstract: "Watch classified-ad sites for new listings.",
    discussion: """
      Searches, cities, filters, quiet hours and notification channels live in one YAML file,
      searches.yaml by default. Check it without touching the network:

        clarissa validate
        clarissa validate --config ~/clarissa/searches.yaml
        clarissa validate --print-urls      # every request a run would make

      Site adapters and what they read:

        clarissa sites
        clarissa sites craigslist --cities bay
        clarissa inspect saved-response.json --site craigslist

      The file's format is described in docs/configuration.md; exit codes in README.md.
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
