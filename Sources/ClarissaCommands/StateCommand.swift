import ArgumentParser
import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import Foundation
import Sites

/// `clarissa state`: look at and repair what runs remember.
struct StateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "state",
    abstract: "Look at and repair what runs remember.",
    subcommands: [Cooldowns.self]
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

    @Option(name: [.short, .long], help: ArgumentHelp("The config file.", valueName: "file"))
    var config = "searches.yaml"

    @Option(
      help: ArgumentHelp(
        "The state file (default: state.path from the config).", valueName: "file"))
    var state: String?

    @Option(help: ArgumentHelp("Clear the cool-down of this host.", valueName: "host"))
    var clear: String?

    @Flag(help: "Clear every cool-down.")
    var clearAll = false

    @Option(help: .hidden)
    var now: String?

    func validate() throws {
      if clear != nil && clearAll {
        throw ValidationError("--clear and --clear-all cannot be used together")
      }
      if let now, Run.parseDate(now) == nil {
        throw ValidationError("--now takes an ISO 8601 time such as 2026-03-08T01:30:00-05:00")
      }
    }

    func run() throws {
      let clock = now.flatMap(Run.parseDate) ?? Date()
      let (configuration, path) = try target()
      let writing = clear != nil || clearAll
      do {
        let access = try StoreAccess.open(
          path, writing: writing, lockWait: 5, config: configuration)
        defer { access.close() }
        let active = Cooldown.active(try access.memory.cooldowns(), at: clock)
        guard writing else {
          print(Self.table(active, now: clock), terminator: "")
          return
        }
        let hosts = active.map(\.host)
        let cleared: [String]
        if let clear {
          guard hosts.contains(clear) else {
            Terminal.error(
              "error: '\(clear)' is not cooling down" + Suggestions.hint(for: clear, in: hosts)
                + " (cooling down: \(hosts.isEmpty ? "none" : hosts.joined(separator: ", ")))\n")
            throw ExitStatus.usage.exitCode
          }
          cleared = [clear]
        } else {
          cleared = hosts
        }
        for host in cleared { try access.memory.setCooldown(nil, host: host) }
        print(
          cleared.isEmpty
            ? "no host is cooling down"
            : "cleared: \(cleared.joined(separator: ", ")); the next run asks "
              + (cleared.count == 1 ? "it" : "them") + " again")
      } catch let error as RunError {
        Terminal.error("error: \(error.message)\n")
        throw ExitStatus.stateUnusable.exitCode
      } catch let error as ExitCode {
        throw error
      } catch {
        Terminal.error("error: \(error)\n")
        throw ExitStatus.stateUnusable.exitCode
      }
    }

    /// The config (none needed with `--state` and no config file) and the state path:
    /// `--state`, else the config's `state.path` relative to the config's folder.
    private func target() throws -> (Config?, String) {
      if let state, !FileManager.default.fileExists(atPath: config) { return (nil, state) }
      let options = try SourceOptions.parse(["--config", config])
      let (configuration, _) = try options.loadConfig(quiet: true)
      return (configuration, state ?? options.statePath(configuration))
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
      let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
      return rows.map { row in
        (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
          .joined(separator: "  ") + "  " + row[3]
      }.joined(separator: "\n") + "\n"
    }
  }
}
