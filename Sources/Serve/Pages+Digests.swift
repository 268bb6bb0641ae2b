internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// The scheduled digests waiting on the main page (docs/notifications.md): per channel, how many
/// listings wait and when they go.
extension WebApp {
  /// A line naming each digest with listings waiting, or nothing.
  func digestsLine() throws -> HTML {
    let timers = config.digests
    guard !timers.isEmpty else { return .empty }
    let now = clock()
    let pending = try store.pending(
      channels: Array(timers.keys), maxAttempts: OwedDelivery.maxAttempts)
    let parts = pending.sorted { $0.key < $1.key }.compactMap { channel, waiting -> HTML? in
      guard let timer = timers[channel] else { return nil }
      let next = timer(waiting.oldest)
      let when: HTML = next <= now ? "due now" : "next \(Pages.time(next, now: now, future: true))"
      let count = "\(waiting.count) listing\(waiting.count == 1 ? "" : "s")"
      return """
        <span class="digest" data-channel="\(channel)">digest \(channel): \(count) pending, \
        \(when)</span>
        """
    }
    guard !parts.isEmpty else { return .empty }
    return "<p class=\"digests\">\(parts, separator: " · ")</p>\n"
  }
}
