internal import ClarissaCore
public import Foundation
public import ListingStore

/// What the run's report and its messages say of a host that refused clarissa.
extension Cooldown {
  /// Whether `host` is Craigslist's, whose blocks come from the address and the pace (so its
  /// advice is about those, not about the URL).
  public static func isCraigslist(_ host: String) -> Bool {
    let name = host.split(separator: ":").first.map(String.init) ?? host
    return name == "craigslist.org" || name.hasSuffix(".craigslist.org")
  }

  /// What to tell the user about a host that refused clarissa this run: the server's answer,
  /// until when clarissa keeps away, what usually fixes it for this kind of host, and how to
  /// clear it. `renewed` names why the host was asked again when it refused a second time.
  public func advice(host: String, renewed: String? = nil, now: Date, timeZone: TimeZone)
    -> String
  {
    let when = ReportClock.time(until, now: now, timeZone: timeZone)
    let clear = "clear with 'clarissa state cooldowns --clear \(host)'"
    let again = renewed.map { " again (asked once because \($0)); the cool-down is renewed" } ?? ""
    if let wall {
      return "\(host) \(why)\(again). No requests to it before \(when). \(wall.vendor) "
        + "decides from the address, the pace and the client; clarissa does not solve "
        + "challenges, disguise itself or switch addresses to get past it. Wait for the "
        + "cool-down, run this search less often, or open the search in a browser; \(clear)"
    }
    if Self.isCraigslist(host) {
      return "\(host) blocked clarissa: \(why)\(again). No requests to it before \(when); "
        + "Craigslist blocks cloud addresses and fast polling: lengthen intervals or run from a "
        + "residential connection; \(clear)"
    }
    return "\(host): the server \(why)\(again): check the URL and any token it needs; "
      + "clarissa will not ask again before \(when); \(clear)"
  }
}
