/// What a notification's button does to its listing.
public enum ListingAction: UInt8, Sendable, CaseIterable {
  /// Marked viewed.
  case viewed = 1
  /// Starred (watched).
  case star = 2
  /// Hidden (never shown or announced again).
  case hide = 3
  /// No longer starred.
  case unstar = 4
  /// No longer hidden.
  case unhide = 5

  /// The buttons a one-listing message carries, in this order (ntfy shows three at most).
  public static let buttons: [ListingAction] = [.viewed, .hide, .star]

  /// The button's label.
  public var label: String {
    switch self {
    case .viewed: "Viewed"
    case .star: "Star"
    case .hide: "Hide"
    case .unstar: "Unstar"
    case .unhide: "Unhide"
    }
  }

  /// What is said once it is done ("Starred").
  public var done: String {
    switch self {
    case .viewed: "Marked viewed"
    case .star: "Starred"
    case .hide: "Hidden"
    case .unstar: "No longer starred"
    case .unhide: "No longer hidden"
    }
  }
}
