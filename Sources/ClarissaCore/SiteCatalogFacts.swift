/// What kind of search a site serves, for the catalogue (`clarissa sites --format json`).
public enum SiteKind: String, Sendable, CaseIterable {
  /// Flats and houses to rent or buy, rooms in shared flats.
  case housing
  /// Second-hand goods of every kind (furniture, bikes, phones), often cars and flats too.
  case marketplace
  /// Cars, motorbikes and vans.
  case vehicles
  /// Jobs.
  case jobs
  /// Any RSS, Atom or JSON Feed: whatever the feed lists.
  case feed
}

/// What stands between a plain client and a site's results, as far as is known: the bot wall a
/// site answers with (`wall:` in a definition, with its evidence in a comment), so that a block
/// is reported as what it is rather than as "0 listings".
public enum SiteWall: String, Sendable, CaseIterable {
  /// None known: the site answers plain clients.
  case none
  /// DataDome's challenge (a `captcha-delivery.com` page, a `datadome` cookie).
  case datadome
  /// Cloudflare's "Just a moment..." challenge or its block page.
  case cloudflare
  /// Akamai Bot Manager (an "Access Denied" page with a reference number, `_abck` cookies).
  case akamai
  /// PerimeterX / HUMAN's "Press & Hold" page.
  case perimeterx
  /// Imperva / Incapsula's block page.
  case imperva
  /// A captcha form of the site's own.
  case captcha
  /// Results only after logging in.
  case login
  /// The site refuses clients by their TLS fingerprint (a reset or a 403 before any page).
  case tlsFingerprint = "tls_fingerprint"
}
