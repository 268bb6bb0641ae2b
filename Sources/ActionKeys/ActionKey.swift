internal import Foundation

/// The secret the action tokens are signed with: 32 random bytes kept as 64 hex digits in a
/// file only its owner may read (`clarissa-actions.key` in the state folder unless
/// `serve.key_file` names another), made on first need. Whoever reads the file can make
/// buttons that mark listings: it is as private as the state itself. Removing it voids every
/// button sent so far.
package struct ActionKey: Sendable, Equatable {
  /// The key's bytes.
  package let bytes: [UInt8]

  /// A key of these bytes (tests, and a file read).
  package init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The key file's name in the state folder.
  package static let fileName = "clarissa-actions.key"

  /// Why the key could not be had.
  package struct Problem: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    package var description: String
  }

  /// The file's form: 32 bytes as 64 hex digits.
  static let file = SecretFile(
    name: "the action key", count: 32, voids: "the buttons sent so far")

  /// The key in `path`, made there (owner-only, 0600) when there is no file yet.
  package static func loadOrCreate(at path: String) throws -> ActionKey {
    ActionKey(bytes: try file.loadOrCreate(at: path))
  }

  /// The key in `path`, nil when there is no file; a file that is not 64 hex digits is an
  /// error (never silently replaced: the buttons already sent would stop working).
  package static func read(_ path: String) throws -> ActionKey? {
    try file.read(path).map(ActionKey.init(bytes:))
  }
}
