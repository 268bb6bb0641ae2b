import ClarissaCore

/// Somewhere new listings go. A listing counts as delivered to a channel only once `deliver`
/// returned without throwing (at least once: a failure is retried on the next run).
public protocol DeliveryChannel: Sendable {
  /// The channel's name in the config.
  var name: String { get }
  /// Sends the listings of one search.
  func deliver(_ listings: [Listing], search: Search) async throws
}

/// Why a channel did not accept a delivery.
public struct DeliveryError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// Listings of the batch that did go through before the failure (one message per listing).
  public var delivered: [String]
  /// Creates an error.
  public init(_ message: String, delivered: [String] = []) {
    self.message = message
    self.delivered = delivered
  }
  public var description: String { message }
}

/// Channels of kinds whose sender is not built yet: every delivery fails, honestly, so the
/// listings stay pending and are delivered once the sender exists.
struct UnavailableChannel: DeliveryChannel {
  let name: String
  let kind: Channel.Kind

  func deliver(_ listings: [Listing], search: Search) async throws {
    throw DeliveryError(
      "channel '\(name)': sending to \(kind.rawValue) is not available in this version of clarissa")
  }
}
