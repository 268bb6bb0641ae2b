internal import ArgumentParser
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Presentation

extension StateCommand {
  /// `clarissa state info`: what the database holds, at a glance.
  struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show the state database: file, size, version, searches, channels, cool-downs.",
      discussion: """
        Prints the database file and its size on disk (with its write-ahead log), its schema \
        version, how many listings it remembers with their price history, per search the \
        listings it has seen and when it last ran, per channel the listings delivered, owed and \
        refused, the held listings and the hosts cooling down. It reads without the lock: it \
        never waits for a run, nor makes one wait.

        Examples:
          clarissa state info
          clarissa state info --state ~/ads/clarissa.db
        """
    )

    @OptionGroup var options: StateOptions

    func run() throws {
      let clock = options.clock
      if let shared = try StateOptions.failing({ try options.sharedStore() }) {
        let info = try StateOptions.failing {
          let access = try StoreAccess.open(
            shared.url, writing: false, lockWait: 0, config: nil, sharing: shared.sharing)
          defer { access.close() }
          guard let store = access.memory as? any StoreSummary else {
            throw StoreProblem("'\(shared.url)' cannot say what it holds")
          }
          return Self.text(try store.info(now: clock), now: clock)
            + (try Self.digests(options.configured(), memory: access.memory, now: clock))
        }
        print(info, terminator: "")
        return
      }
      guard
        let info = try options.reading({ store, _ in
          Self.text(try store.info(now: clock), now: clock)
            + (try Self.digests(options.configured(), memory: store, now: clock))
        })
      else { return }
      print(info, terminator: "")
    }

    /// The report, one section after another.
    static func text(_ info: StoreInfo, now: Date) -> String {
      let zone = TimeZone.current
      func when(_ date: Date?) -> String {
        date.map { ReportClock.time($0, now: now, timeZone: zone) } ?? "never"
      }
      let what = info.leases == nil ? "file" : "database"
      var text = """
        \(what): \(info.path) (\(size(info.bytes)) on disk), schema version \(info.schemaVersion)
        listings: \(info.listings) remembered, \(info.prices) prices seen, \(info.held) held

        """
      text += section(
        "searches", empty: "none yet", header: ["search", "listings", "last run", "last tried"],
        info.searches.map { [$0.name, "\($0.listings)", when($0.lastRun), when($0.lastAttempt)] })
      text += section(
        "channels", empty: "nothing delivered yet",
        header: ["channel", "delivered", "owed", "refused"],
        info.channels.map { [$0.name, "\($0.delivered)", "\($0.owed)", "\($0.failed)"] })
      text += section(
        "cooling down", empty: "no host", header: ["host", "until", "why"],
        info.cooldowns.map { [$0.host, when($0.cooldown.until), $0.cooldown.why] })
      guard let leases = info.leases else { return text }
      text += section(
        "workers", empty: "none has run yet",
        header: ["worker", "process", "clarissa", "last seen", "holding", "oldest lease"],
        info.workers.map {
          [
            $0.name, "\($0.host) pid \($0.pid)", $0.version, when($0.seenAt), "\($0.holding)",
            $0.oldestTaken.map { ReportClock.span(now.timeIntervalSince($0)) + " old" } ?? "-",
          ]
        })
      text +=
        "\nleases: \(leases.sources) sources, \(leases.held) held now, \(leases.lapsed) "
        + "lapsed (their worker stopped; the next to ask takes them), \(leases.takeovers) taken "
        + "over so far\n"
      return text
    }

    /// A titled table, indented, or a line saying there is nothing.
    private static func section(
      _ title: String, empty: String, header: [String], _ rows: [[String]]
    ) -> String {
      guard !rows.isEmpty else { return "\n\(title):\n  \(empty)\n" }
      let table = TextTable.render([header] + rows)
      return "\n\(title):\n" + table.split(separator: "\n").map { "  " + $0 + "\n" }.joined()
    }

    /// Bytes as a person reads them.
    static func size(_ bytes: Int) -> String {
      let units = ["bytes", "KB", "MB", "GB"]
      var value = Double(bytes)
      var unit = 0
      while value >= 1024 && unit < units.count - 1 {
        value /= 1024
        unit += 1
      }
      return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
    }
  }
}
