/// A warning sign on a listing (issue 43): what kind it is and its one line ("41% below the
/// median of 38 similar"). The engine finds them for new listings (stage `Signals`, module
/// ClarissaEngine) and the store keeps them; messages, the reports, `show`, the page and the
/// map say them. A sign never hides a listing unless a search asks (``SignalSettings/drop``).
public struct ListingSignal: Sendable, Equatable, Hashable, Codable {
  /// The kinds, by the stable names config and JSON use.
  public enum Kind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// One of its photos is on another listing in another place or at another price.
    case photoElsewhere = "photo-elsewhere"
    /// Its price is far below the median of comparable listings the store knows.
    case lowPrice = "low-price"
    /// The same item was posted again many times.
    case reposted
    /// Its title or description holds words that scam reports name.
    case scamWords = "scam-words"
    /// The seller's account is new, where a site says.
    case newSeller = "new-seller"
  }

  /// What kind of sign.
  public var kind: Kind
  /// Its one line, as shown (`41% below the median of 38 similar`).
  public var text: String

  /// Creates a sign.
  public init(_ kind: Kind, _ text: String) {
    self.kind = kind
    self.text = text
  }
}

/// What a search does with warning signs (`signals:`): the kinds that drop a listing (none by
/// default: a sign is shown, never hiding anything), and scam words added to the shipped lists.
public struct SignalSettings: Sendable, Equatable {
  /// A listing with a sign of one of these kinds is `filtered`, the sign its reason.
  public var drop: Set<ListingSignal.Kind> = []
  /// Phrases added to the shipped scam words (any language), matched like them.
  public var words: [String] = []

  /// Creates the settings.
  public init(drop: Set<ListingSignal.Kind> = [], words: [String] = []) {
    self.drop = drop
    self.words = words
  }
}
