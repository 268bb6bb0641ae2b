internal import ActionKeys
internal import Channels
internal import ClarissaCore
internal import ClarissaEngine
internal import Curl
internal import Foundation
internal import ListingStore

/// `watch`'s side of the Telegram buttons: with `serve.url` set, every bot of a `tgram://`
/// channel that carries buttons (not `buttons=no`) is asked for its button presses with
/// long-polling `getUpdates`, each applied to the store and answered.
enum TelegramButtons {
  /// One reader per bot (channels of one bot share it); none without `serve.url`.
  static func readers(_ config: Config, source: SourceOptions) throws -> [TelegramCallbacks] {
    guard let links = try source.actionLinks(config) else { return [] }
    let channels = config.channels.values.filter { $0.kind == .telegram && $0.wantsButtons }
    guard !channels.isEmpty else { return [] }
    let statePath = source.statePath(config)
    let store = try ServedSetup.openStore(statePath, sharing: try source.sharing(config))
    let wait = 25
    // Telegram holds the call open up to `wait` seconds: the request's deadline is longer.
    let fetcher = CurlFetcher(
      limits: FetchLimits(
        timeout: Double(wait) + config.http.timeout.timeInterval, maxBytes: 1 << 20))
    var readers: [String: TelegramCallbacks] = [:]
    for channel in channels.sorted(by: { $0.name < $1.name }) {
      guard
        let reader = TelegramCallbacks(
          channel: channel, fetcher: fetcher, key: links.key, store: store, wait: wait)
      else { continue }
      // One reader per bot, taking presses from every chat its channels send to.
      if let shared = readers[reader.bot] {
        shared.admit(chatsOf: reader)
      } else {
        readers[reader.bot] = reader
      }
    }
    return Array(readers.values)
  }

  /// Reads and answers presses until `stopped`; a failed call is said once and tried again
  /// after `pause` seconds (Telegram out of reach, or another program reading the same bot).
  static func answer(
    _ reader: TelegramCallbacks, pause: Double = 30, stopped: @escaping @Sendable () -> Bool
  ) -> Task<Void, Never> {
    Task {
      var failing = false
      while !Task.isCancelled && !stopped() {
        do {
          for line in try await reader.poll() { log(line) }
          failing = false
        } catch {
          // Stopping cancels the wait between calls: that is no failure to report.
          if Task.isCancelled || stopped() { break }
          if !failing { log("Telegram buttons: \(error); trying again every \(Int(pause)) s") }
          failing = true
          let until = Date().addingTimeInterval(pause)
          while Date() < until && !Task.isCancelled && !stopped() {
            try? await Task.sleep(nanoseconds: 100_000_000)
          }
        }
      }
    }
  }

  private static func log(_ line: String) {
    Terminal.error("clarissa watch: \(line)\n")
  }
}
