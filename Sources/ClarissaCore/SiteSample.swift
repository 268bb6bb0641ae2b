/// One recorded answer a site is checked against (`samples:` in a definition), and the listing
/// facts it carries: what `clarissa sites --format json` and docs/sites.md say a site gives. A
/// test reads every sample of every registered site and checks the facts both ways.
public struct SiteSample: Sendable, Equatable {
  /// The facts a sample may name, as `ListingFactCounts` names them: the listing's own fields
  /// (a site's free-form `facts` vary by listing and are not named here).
  public static let factNames = [
    "coordinates", "rooms", "bedrooms", "bathrooms", "floor_area", "postcode", "address",
  ]

  /// From the repository's root: `Fixtures/<site>/<file>`.
  public var file: String
  /// Of ``factNames``, those some listing read from the answer has, in that order.
  public var facts: [String]

  /// Creates a sample.
  public init(file: String, facts: [String]) {
    self.file = file
    self.facts = facts
  }
}
