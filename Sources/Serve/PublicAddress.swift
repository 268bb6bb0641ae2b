internal import Foundation

/// `serve.url` taken apart: the origin a browser's requests from its pages carry, the `Host`
/// values a request to it carries, and whether it names this machine.
package struct PublicAddress: Sendable, Equatable {
  /// `https://flat.example.net`, `http://192.168.1.5:8421`: scheme and host in lower case, the
  /// port only when it is not the scheme's own (as a browser writes `Origin`).
  package let origin: String
  /// The `Host` values a request to it carries (`flat.example.net` and `flat.example.net:443`).
  package let hosts: Set<String>
  /// Whether its host is `localhost`, 127.0.0.0/8 or `::1`.
  package let isLoopback: Bool

  /// The parts of an `http:` or `https:` address with a host; nil for anything else.
  package init?(_ url: String) {
    guard let parts = URLComponents(string: url.trimmingCharacters(in: .whitespaces)),
      let scheme = parts.scheme?.lowercased(), scheme == "http" || scheme == "https",
      var host = parts.host?.lowercased(), !host.isEmpty
    else { return nil }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    let name = host.contains(":") ? "[\(host)]" : host
    let own = scheme == "https" ? 443 : 80
    let port = parts.port ?? own
    origin = "\(scheme)://" + (port == own ? name : "\(name):\(port)")
    hosts = port == own ? [name, "\(name):\(port)"] : ["\(name):\(port)"]
    isLoopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }
}
