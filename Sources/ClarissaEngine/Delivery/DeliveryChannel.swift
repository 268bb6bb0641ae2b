import ClarissaCore

/// Somewhere new listings go. A listing counts as delivered to a channel once the channel
/// accepted the message carrying it: the channel says so through `receipt` at once, message by
/// message, so that the run records it before sending the next (at least once: a crash repeats
/// at most the message in flight; a refusal is retried on the next run).
public protocol DeliveryChannel: Sendable {
  /// The channel's name in the config.
  var name: String { get }
  /// Sends the listings of one search, calling `receipt` with the listings of each message the
  /// moment it is accepted (a throw from `receipt` stops the sending).
  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws
}

/// Called with the listings of each accepted message.
public typealias DeliveryReceipt = @Sendable ([Listing]) throws -> Void

extension DeliveryChannel {
  /// Sends without recording receipts (`notify test`).
  public func deliver(_ listings: [Listing], search: Search) async throws {
    try await deliver(listings, search: search) { _ in }
  }
}

/// Why a channel did not accept a delivery.
public struct DeliveryError: Error, Sendable, CustomStringConvertible {
  /// What went wrong. (What did go through before it was said message by message, through
  /// the receipt.)
  public var message: String
  /// Creates an error.
  public init(_ message: String) {
    self.message = message
  }
  public var description: String { message }
}

/// Channels of kinds whose sender is not built yet: every delivery fails, honestly, so the
/// listings stay pending and are delivered once the sender exists.
struct UnavailableChannel: DeliveryChannel {
  let name: String
  let kind: Channel.Kind

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    throw DeliveryError(
      "channel '\(name)': sending to \(kind.rawValue) is not available in this version of clarissa")
  }
}

/// What a refusing receiver or program said, fit for one line of a report: white space (line
/// breaks included) folded, tags dropped when asked (error pages are often HTML), at most
/// `limit` characters, the end kept when `keepingEnd` (a program's last words say most).
enum Excerpt {
  static func oneLine<Bytes: Collection<UInt8>>(
    _ body: Bytes, droppingTags: Bool = false, limit: Int = 160, keepingEnd: Bool = false
  ) -> String {
    var text: [UInt8] = []
    var inTag = false
    for byte in body {
      switch byte {
      case UInt8(ascii: "<") where droppingTags: inTag = true
      case UInt8(ascii: ">") where inTag:
        inTag = false
        if text.last != 0x20 { text.append(0x20) }
      case _ where inTag: continue
      case 0x09, 0x0A, 0x0D, 0x20: if !text.isEmpty, text.last != 0x20 { text.append(0x20) }
      default: text.append(byte)
      }
    }
    // A server's words reach a terminal and the logs: no control character among them.
    let line = SafeText.line(String(decoding: text, as: UTF8.self))
      .trimmingCharacters(in: .whitespaces)
    guard line.count > limit else { return line }
    return keepingEnd ? "…" + String(line.suffix(limit - 1)) : String(line.prefix(limit - 1)) + "…"
  }
}
