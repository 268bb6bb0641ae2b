import ClarissaCore
import Foundation

/// What the pages know of the config: its searches in order, and its problems as the terminal
/// shows them (with file:line:column), or the reason it could not be read at all.
public struct ServedConfig: Sendable {
  /// One search as the list of searches shows it.
  public struct Search: Sendable {
    /// Its name.
    public var name: String
    /// Its site's id.
    public var site: String
    /// Seconds between runs.
    public var interval: Double
    /// `enabled: false` searches are listed as off.
    public var enabled: Bool
    /// The hosts its requests go to (for their cool-downs).
    public var hosts: [String]

    /// Creates a search's entry.
    public init(name: String, site: String, interval: Double, enabled: Bool, hosts: [String]) {
      self.name = name
      self.site = site
      self.interval = interval
      self.enabled = enabled
      self.hosts = hosts
    }
  }

  /// The config file.
  public var path: String
  /// Its searches, in order (none when it could not be read).
  public var searches: [Search]
  /// Errors and warnings as rendered text; empty when there are none.
  public var problems: String
  /// Whether the problems include an error (the config is not the one running).
  public var hasErrors: Bool

  /// Creates the pages' view of a config.
  public init(path: String, searches: [Search], problems: String, hasErrors: Bool) {
    self.path = path
    self.searches = searches
    self.problems = problems
    self.hasErrors = hasErrors
  }
}
