internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Presentation
internal import Sites

/// `clarissa state`: look at and repair what runs remember.
struct StateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "state",
    abstract: "Look at and repair what runs remember.",
    discussion: """
      Runs remember, in one SQLite database (state.path, clarissa.db beside the config by \
      default), every listing they saw with its price history, which searches saw it, what \
      each channel accepted or still owes, held listings, validators and host cool-downs. \
      These commands read it (never blocking a run) or change it under the runs' lock. \
      docs/state.md describes the database and the export format.

      Examples:
        clarissa state info
        clarissa state export --output state.jsonl
        clarissa state forget --search bikes
        clarissa state check
      """,
    subcommands: [
      Info.self, Export.self, Import.self, Forget.self, Prune.self, Check.self,
      Cooldowns.self, Migrate.self,
    ]
  )

  /// `clarissa state cooldowns`: the hosts clarissa keeps away from, and clearing them.
  struct Cooldowns: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the hosts clarissa leaves alone after a refusal, or clear them.",
      discussion: """
        A host that answered 403 (or a block page) is not asked again for 6 hours; one that \
        asked for a long wait (429, 503) for as long as it asked. Each line gives the host, \
        since when, until when, and why: the status and the server's own short answer. \
        Clearing takes the state's lock as a run does, so it never races one.

        Examples:
          clarissa state cooldowns
          clarissa state cooldowns --clear feeds.example.org
          clarissa state cooldowns --clear-all --state ~/ads/clarissa-state.json
        """
    )

    @OptionGroup var options: StateOptions

    @Option(help: ArgumentHelp("Clear the cool-down of this host.", valueName: "host"))
    var clear: String?

    @Flag(help: "Clear every cool-down.")
    var clearAll = false

    func validate() throws {
      if clear != nil && clearAll {
        throw ValidationError("--clear and --clear-all cannot be used together")
      }
    }

    func run() throws {
      let clock = options.clock
      guard clear != nil || clearAll else {
        let cooldowns =
          try options.reading(quiet: true) { store, _ in try store.cooldowns() } ?? [:]
        print(Self.table(Cooldown.active(cooldowns, at: clock), now: clock), terminator: "")
        return
      }
      let cleared: [String] =
        try options.writing(create: true) { store, _ in
          let hosts = Cooldown.active(try store.cooldowns(), at: clock).map(\.host)
          let cleared = try chosen(hosts)
          for host in cleared { try store.setCooldown(nil, host: host) }
          return cleared
        } ?? []
      print(
        cleared.isEmpty
          ? "no host is cooling down"
          : "cleared: \(cleared.joined(separator: ", ")); the next run asks "
            + (cleared.count == 1 ? "it" : "them") + " again")
    }

    /// The hosts to clear: `--clear HOST` (which must be cooling down), or all of them.
    private func chosen(_ hosts: [String]) throws -> [String] {
      guard let clear else { return hosts }
      guard hosts.contains(clear) else {
        Terminal.error(
          "error: '\(clear)' is not cooling down" + Suggestions.hint(for: clear, in: hosts)
            + " (cooling down: \(hosts.isEmpty ? "none" : hosts.joined(separator: ", ")))\n")
        throw ExitStatus.usage.exitCode
      }
      return [clear]
    }

    /// One line per host: host, since, until, why.
    static func table(_ active: [(host: String, cooldown: Cooldown)], now: Date) -> String {
      guard !active.isEmpty else { return "no host is cooling down\n" }
      let zone = TimeZone.current
      let rows =
        [["host", "since", "until", "why"]]
        + active.map { entry in
          [
            entry.host,
            entry.cooldown.since.map { ReportClock.time($0, now: now, timeZone: zone) } ?? "-",
            ReportClock.time(entry.cooldown.until, now: now, timeZone: zone),
            entry.cooldown.why,
          ]
        }
      return TextTable.render(rows)
    }
  }
}
