internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Presentation

extension StateOptions {
  /// The config the options name, when it can be read (nil otherwise: the state alone).
  func configured() -> Config? {
    guard FileManager.default.fileExists(atPath: config),
      let options = try? SourceOptions.parse(["--config", config])
    else { return nil }
    return options.readConfig(colored: false).loaded.config
  }
}

extension StateCommand.Info {
  /// The scheduled digests (docs/notifications.md): per channel with a schedule, the listings
  /// waiting for it and when it goes; nothing when no channel has a schedule.
  static func digests(_ config: Config?, memory: any ListingMemory, now: Date) throws -> String {
    guard let config, config.channels.values.contains(where: { $0.schedule != nil }) else {
      return ""
    }
    let plan = try DigestTiming.plan(config: config, memory: memory)
    let zone = TimeZone.current
    var text = "\ndigests:\n"
    for channel in config.channels.values.sorted(by: { $0.name < $1.name })
    where channel.schedule != nil {
      let schedule = channel.schedule.map { "\($0)" } ?? ""
      guard let entry = plan.first(where: { $0.channel.name == channel.name }) else {
        text += "  \(channel.name) (\(schedule)): nothing pending\n"
        continue
      }
      let when =
        entry.next <= now
        ? "due now (the next run sends it)"
        : "next \(ReportClock.time(entry.next, now: now, timeZone: zone)) (in "
          + "\(ReportClock.span(entry.next.timeIntervalSince(now))))"
      text +=
        "  \(channel.name) (\(schedule)): \(entry.pending.count) listing"
        + (entry.pending.count == 1 ? "" : "s") + " "
        + "pending, \(when)\n"
    }
    return text
  }
}
