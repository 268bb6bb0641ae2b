package import ClarissaCore

/// Somewhere new listings go. A listing counts as delivered to a channel once the channel
/// accepted the message carrying it: the channel says so through `receipt` at once, message by
/// message, so that the run records it before sending the next (at least once: a crash repeats
/// at most the message in flight; a refusal is retried on the next run).
package protocol DeliveryChannel: Sendable {
  /// The channel's name in the config.
  var name: String { get }
  /// Sends the listings of one search, calling `receipt` with the listings of each message the
  /// moment it is accepted (a throw from `receipt` stops the sending).
  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws
}

/// Called with the listings of each accepted message.
package typealias DeliveryReceipt = @Sendable ([Listing]) throws -> Void

extension DeliveryChannel {
  /// Sends without recording receipts (`notify test`).
  package func deliver(_ listings: [Listing], search: Search) async throws {
    try await deliver(listings, search: search) { _ in }
  }
}

/// Why a channel did not accept a delivery.
package struct DeliveryError: Error, Sendable, CustomStringConvertible {
  /// What went wrong. (What did go through before it was said message by message, through
  /// the receipt.)
  package var message: String
  /// The service read this message and refused it alone (``messageStatuses``): the channel's
  /// other messages still go. Otherwise the service is out of reach, refuses the sender
  /// (credentials, address, rate) or failed itself, and the batch stops.
  package var onlyThisMessage: Bool
  /// Messages of the batch refused each alone before the batch ended: their listings and
  /// why. The error's own message is then what stopped the batch, or, when nothing did, these
  /// refusals said together.
  package var refusedMessages: [RefusedMessage] = []

  /// HTTP statuses that refuse the message rather than the sender: bad request, too large,
  /// address too long, unsupported type, unprocessable, header fields too large.
  package static let messageStatuses: Set<Int> = [400, 413, 414, 415, 422, 431]

  /// Creates an error; `onlyThisMessage` for a refusal of this message alone.
  package init(_ message: String, onlyThisMessage: Bool = false) {
    self.message = message
    self.onlyThisMessage = onlyThisMessage
  }

  /// An HTTP service's refusal, of this message alone when `status` is one of
  /// ``messageStatuses``.
  init(_ message: String, status: Int) {
    self.init(message, onlyThisMessage: Self.messageStatuses.contains(status))
  }

  package var description: String { message }
}

/// A message a channel refused alone (``DeliveryError/onlyThisMessage``) while it went on
/// with the batch's others.
package struct RefusedMessage: Sendable {
  /// The message's listings.
  package var listings: [Listing]
  /// What the service said.
  package var reason: String
}

/// Channels of kinds whose sender is not built yet: every delivery fails, honestly, so the
/// listings stay pending and are delivered once the sender exists.
package struct UnavailableChannel: DeliveryChannel {
  package let name: String
  let kind: Channel.Kind

  /// A channel `name` of `kind`, which has no sender.
  package init(name: String, kind: Channel.Kind) {
    self.name = name
    self.kind = kind
  }

  package func deliver(
    _ listings: [Listing], search: Search, receipt: DeliveryReceipt
  ) async throws {
    throw DeliveryError(
      "channel '\(name)': sending to \(kind.rawValue) is not available in this version of clarissa")
  }
}
