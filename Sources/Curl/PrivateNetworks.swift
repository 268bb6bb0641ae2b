internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#endif

/// The addresses a request that started on a public address may not be led to: loopback
/// (127.0.0.0/8, ::1), link-local (169.254.0.0/16, fe80::/10), private (10.0.0.0/8,
/// 172.16.0.0/12, 192.168.0.0/16, fc00::/7), shared CGNAT space (100.64.0.0/10), "this network"
/// and unspecified (0.0.0.0/8, ::), and IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) of any of
/// those. Everything else is public.
public struct PrivateNetworks: Sendable {
  /// Addresses taken as public although a range above holds them.
  private let exempt: Set<[UInt8]>

  /// The ranges above, without exceptions: what clarissa uses.
  public static let standard = PrivateNetworks()

  /// The ranges above; `publicAddresses` are taken as public all the same. Only tests set it:
  /// they cannot reach a public host, so a second loopback address (127.0.0.2) plays one.
  public init(treatingAsPublic publicAddresses: [String] = []) {
    exempt = Set(publicAddresses.compactMap(Self.bytes))
  }

  /// Whether `address` (IPv4 or IPv6 text, brackets and a zone allowed) lies in a range above;
  /// nil when it is not an address.
  public func contains(_ address: String) -> Bool? {
    guard let bytes = Self.bytes(address) else { return nil }
    return !exempt.contains(bytes) && Self.isPrivate(bytes)
  }

  /// The address's 4 or 16 bytes, in network order.
  static func bytes(_ text: String) -> [UInt8]? {
    var text = text
    if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
    if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
    return nil
  }

  private static func isPrivate(_ bytes: [UInt8]) -> Bool {
    if bytes.count == 4 { return isPrivateV4(bytes[0], bytes[1]) }
    guard bytes.count == 16 else { return true }
    if bytes[..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
      return isPrivateV4(bytes[12], bytes[13])  // ::ffff:a.b.c.d
    }
    if bytes[..<15].allSatisfy({ $0 == 0 }), bytes[15] <= 1 { return true }  // :: and ::1
    if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return true }  // fe80::/10
    return bytes[0] & 0xFE == 0xFC  // fc00::/7
  }

  private static func isPrivateV4(_ first: UInt8, _ second: UInt8) -> Bool {
    switch first {
    case 0, 10, 127: return true
    case 169: return second == 254
    case 172: return second & 0xF0 == 16
    case 192: return second == 168
    case 100: return second & 0xC0 == 64
    default: return false
    }
  }
}

/// One request's rule: once its first connection has landed on a public address, no later
/// connection (a redirect's, on a new connection or a reused one) may land on a private one.
/// A request whose first connection is private (a feed on the user's network, by address or by
/// name) may go anywhere, as before.
struct RedirectGuard {
  let networks: PrivateNetworks
  /// The URL the request started from.
  let source: String
  /// Whether the first connection landed on a private address; nil before it is made.
  private(set) var startedPrivate: Bool?

  init(networks: PrivateNetworks, source: String) {
    self.networks = networks
    self.source = source
  }

  /// The refusal for a new connection to `address` (before connecting), if the request is
  /// known to have started public and `address` is private. An address that is not one
  /// (never seen) counts as private.
  func open(_ address: String, for url: String) -> FetchError? {
    guard startedPrivate == false, networks.contains(address) ?? true else { return nil }
    return refusal(url, address)
  }

  /// A request about to be sent for `url` on a connection to `address`: the first decides how
  /// the request started; any later one is refused when the start was public and `address` is
  /// private.
  mutating func send(to address: String, for url: String) -> FetchError? {
    guard let started = startedPrivate else {
      startedPrivate = networks.contains(address) ?? false
      return nil
    }
    guard !started, networks.contains(address) ?? true else { return nil }
    return refusal(url, address)
  }

  private func refusal(_ url: String, _ address: String) -> FetchError {
    // The address is named when the URL names a host, not the address itself.
    let host = URL(string: url)?.host.flatMap(PrivateNetworks.bytes)
    let target =
      host != nil && host == PrivateNetworks.bytes(address) ? url : "\(url), address \(address)"
    return FetchError(
      .network,
      "redirected from a public address (\(source)) to a private one (\(target)): refused; "
        + "allow it with 'allow_private_redirects: true' on the search if the feed is on your "
        + "own network")
  }
}
