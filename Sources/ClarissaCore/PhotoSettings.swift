/// `photos:`: the photo fingerprints of new listings (issue 43). A run fetches, for each
/// listing new to a search, its first ``perListing`` photos (http(s) only, each once: a photo
/// whose fingerprint is kept is not fetched again), at most ``perRun`` in one run, through the
/// polite scheduler like any request; the hashes make reposts and cross-site folding match a
/// photo uploaded again. `photos: off` fetches none.
public struct PhotoSettings: Sendable, Equatable {
  /// Whether photos are fetched at all.
  public var enabled: Bool
  /// Photos fetched per new listing, its first ones: 2 by default (a listing's first photo is
  /// often the house's front, the second a room).
  public var perListing: Int
  /// Photos fetched in one run, at most: 200 by default; the others wait for their listing to
  /// be new again (never: a listing's photos are fetched when it is new, or not at all).
  public var perRun: Int

  /// The defaults: on, 2 per listing, 200 per run.
  public init(enabled: Bool = true, perListing: Int = 2, perRun: Int = 200) {
    self.enabled = enabled
    self.perListing = perListing
    self.perRun = perRun
  }

  /// `photos: off`.
  public static let off = PhotoSettings(enabled: false)

  /// The most photos per listing a config may ask for.
  public static let perListingRange = 1...10
  /// The most photos per run a config may ask for.
  public static let perRunRange = 1...10_000
}
