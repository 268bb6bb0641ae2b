public import ClarissaCore
public import Foundation
public import ListingStore

/// When scheduled digests go (``DigestSchedule``): at the first scheduled time after the oldest
/// delivery owed to the channel was owed; a time in the quiet hours of a search whose listings
/// the channel carries moves to their end, and a digest due while they last waits for it.
public enum DigestTiming {
  /// When `channel`'s digest goes for deliveries owed since `oldest`; nil for a channel
  /// without a schedule.
  public static func next(_ channel: Channel, oldest: Date, config: Config) -> Date? {
    guard let schedule = channel.schedule else { return nil }
    var due = schedule.occurrence(atOrAfter: oldest)
    // Windows may follow one another: a few steps reach the end of the last.
    for _ in 0..<8 {
      guard let end = quietEnd(of: channel, at: due, config: config) else { break }
      due = end
    }
    return due
  }

  /// Per channel with a schedule: when its digest goes for deliveries owed since a time.
  public static func timers(_ config: Config) -> [String: @Sendable (Date) -> Date] {
    var timers: [String: @Sendable (Date) -> Date] = [:]
    for channel in config.channels.values where channel.schedule != nil {
      timers[channel.name] = { oldest in next(channel, oldest: oldest, config: config) ?? oldest }
    }
    return timers
  }

  /// The end of the quiet hours covering `date` for the searches `channel` carries, if any do.
  static func quietEnd(of channel: Channel, at date: Date, config: Config) -> Date? {
    config.searches.filter { $0.notify.contains(channel.name) }
      .flatMap(\.blackout).compactMap { config.blackouts[$0]?.occurrence(containing: date)?.end }
      .max()
  }

  /// The scheduled digest channels with deliveries owed, and when each digest goes.
  public static func plan(config: Config, memory: any ListingMemory) throws
    -> [(channel: Channel, pending: PendingDigest, next: Date)]
  {
    let scheduled = config.channels.values.filter { $0.schedule != nil }
    let pending = try memory.pending(
      channels: scheduled.map(\.name), maxAttempts: Deliver.maxAttempts)
    return scheduled.sorted { $0.name < $1.name }.compactMap { channel in
      guard let owed = pending[channel.name],
        let next = next(channel, oldest: owed.oldest, config: config)
      else { return nil }
      return (channel, owed, next)
    }
  }

  /// The scheduled digest channels whose digest goes now.
  static func due(config: Config, memory: any ListingMemory, now: Date) throws -> Set<String> {
    Set(
      try plan(config: config, memory: memory).filter {
        $0.next <= now && quietEnd(of: $0.channel, at: now, config: config) == nil
      }.map(\.channel.name))
  }

  /// The next time a digest goes after `now` (a wake-up for `watch`); nil when none waits.
  static func nextWake(config: Config, memory: any ListingMemory, now: Date) throws -> Date? {
    try plan(config: config, memory: memory).map {
      max($0.next, quietEnd(of: $0.channel, at: now, config: config) ?? $0.next)
    }.filter { $0 > now }.min()
  }
}
