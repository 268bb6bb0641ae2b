internal import Foundation

/// Bot walls told by their own signatures (the markers their vendors put in a challenge or block
/// page and its headers), whatever the HTTP status, so that every site's answer is checked the
/// same way before it is read: a wall is reported as "blocked by DataDome", never as
/// "0 listings" or "the page changed".
extension SiteWall {
  /// The wall's name as a report says it ("blocked by DataDome").
  public var vendor: String {
    switch self {
    case .none: "no wall"
    case .datadome: "DataDome"
    case .cloudflare: "Cloudflare"
    case .akamai: "Akamai"
    case .perimeterx: "PerimeterX"
    case .imperva: "Imperva (Incapsula)"
    case .captcha: "a captcha"
    case .login: "a login wall"
    case .tlsFingerprint: "its TLS fingerprint check"
    }
  }

  /// How much of a body is looked at: challenge pages are small, and their markers come early.
  public static let scannedBytes = 64 * 1024

  /// The vendor wall an answer is, from its headers (names lower-cased) and the start of its
  /// body; nil when it carries no vendor's signature. Only markers found on challenge and block
  /// pages count, not those a vendor also puts on the pages it lets through (DataDome's
  /// `tags.js`, Cloudflare's `challenge-platform` beacon, Imperva's `_Incapsula_Resource` script
  /// on a full page, PerimeterX's `_pxAppId` on its sensor).
  public static func recognised(
    status: Int, headers: [String: String], body: some Collection<UInt8>
  ) -> SiteWall? {
    let header = { (name: String) in headers[name]?.lowercased() }
    if header("cf-mitigated") == "challenge" { return .cloudflare }
    let refused = status == 401 || status == 403 || status == 429
    if refused, header("x-datadome") != nil || header("x-datadome-cid") != nil { return .datadome }
    // Markers a full page may carry for another reason (a content security policy naming
    // captcha-delivery.com, "access denied" in a page's messages) count on a page of a stub's
    // size only: challenge and block pages are a few kilobytes.
    let small = body.count <= 32 * 1024
    let page = entitiesDecoded(String(decoding: body.prefix(scannedBytes), as: UTF8.self))
    if page.contains("captcha-delivery.com"), small || page.contains("var dd={") {
      return .datadome
    }
    if page.contains("_cf_chl_opt") || page.contains("__cf_chl_")
      || page.contains("<title>just a moment...</title>")
      || page.contains("attention required! | cloudflare")
    {
      return .cloudflare
    }
    if small, page.contains("access denied"),
      page.contains("errors.edgesuite.net") || page.contains("reference #")
    {
      return .akamai
    }
    if page.contains("px-captcha"), small || page.contains("access to this page has been denied") {
      return .perimeterx
    }
    if page.contains("_pxappid"), page.contains("access to this page has been denied") {
      return .perimeterx
    }
    if page.contains("incapsula incident id")
      || (page.contains("_incapsula_resource") && body.count <= 8 * 1024)
      || (refused && header("x-iinfo") != nil)
    {
      return .imperva
    }
    return nil
  }

  /// `text` lower-cased, with the character references vendors write their pages in (Akamai's
  /// `Reference&#32;&#35;18&#46;...`) made the characters they stand for.
  static func entitiesDecoded(_ text: String) -> String {
    guard text.contains("&#") else { return text.lowercased() }
    var decoded = text.lowercased()
    for (entity, character) in [
      ("&#32;", " "), ("&#35;", "#"), ("&#46;", "."), ("&#47;", "/"), ("&#58;", ":"),
    ] {
      decoded = decoded.replacingOccurrences(of: entity, with: character)
    }
    return decoded
  }
}
