package import ArgumentParser

/// The `clarissa` command: subcommands for each way the tool is used.
@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
package struct Clarissa: AsyncParsableCommand {
  package static let configuration = CommandConfiguration(
    commandName: "clarissa",
    abstract: "Watch classified-ad sites for new listings.",
    discussion: """
      Searches, cities, filters, quiet hours and channels live in one YAML file, \
      searches.yaml by default (docs/configuration.md).

        clarissa init                # write a commented starter searches.yaml
        clarissa validate            # check it; no network
        clarissa run                 # due searches; new listings, once
        clarissa watch               # keep running at each interval
        clarissa run --replay Fixtures/replay/default --dry-run \\
          --notify-first-run         # the bundled config, offline

      Understand what happened:

        clarissa explain --search ipads   # why each listing was kept
        clarissa notify test phone        # a sample through a channel
        clarissa validate --print-urls    # every request of a run

      Browse what was found, and what you have viewed:

        clarissa serve                    # http://127.0.0.1:8421/
        clarissa listings --unviewed
        clarissa star 7931742798          # watch it; hide, note, listings --starred
        clarissa watch --http 127.0.0.1:8421   # watch and serve in one process

      Site adapters and what they read:

        clarissa sites
        clarissa sites craigslist --cities bay
        clarissa inspect saved.json --site craigslist

      Photo fingerprints (the hash Python's imagehash.dhash gives):

        clarissa photos hash photo.jpg

      Exit codes are listed in README.md.
      """,
    version: "0.1.0",
    subcommands: [
      Init.self, Run.self, Watch.self, Validate.self, Explain.self, Inspect.self, SitesCommand.self,
      NotifyCommand.self, StateCommand.self, ListingsCommand.self, ShowCommand.self,
      SchemaCommand.self, ServeCommand.self, PhotosCommand.self, StarCommand.self,
      UnstarCommand.self,
      HideCommand.self, UnhideCommand.self, NoteCommand.self,
    ]
  )

  package init() {}

  /// Parses the command line and runs the chosen command, async or not. (Calling `main()` from
  /// another module picks ParsableCommand's synchronous overload, which cannot run `run`.)
  package static func runFromCommandLine() async {
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
