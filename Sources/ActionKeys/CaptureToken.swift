internal import Foundation

/// The secret the bookmarklet carries: 24 random bytes kept as 48 hex digits in a file only its
/// owner may read (`clarissa-capture.key` beside the action key), made the first time the
/// bookmarklet's page is shown. It lets `POST /capture` read a page into the searches and
/// nothing else: it is not the access token and not the action key. Replacing it (the
/// page's button) voids every bookmarklet made with the old one.
package struct CaptureToken: Sendable, Equatable {
  /// The token as the bookmarklet sends it: 48 lower-case hex digits.
  package let text: String

  /// A token of this text (tests, and a file read).
  package init(text: String) {
    self.text = text
  }

  /// The token file's name in the state folder.
  package static let fileName = "clarissa-capture.key"

  /// The file's form: 24 bytes as 48 hex digits.
  static let file = SecretFile(
    name: "the capture token", count: 24, voids: "bookmarklets made so far")

  /// The token in `path`, made there (owner-only, 0600) when there is no file yet.
  package static func loadOrCreate(at path: String) throws -> CaptureToken {
    CaptureToken(text: Secret.hex(try file.loadOrCreate(at: path)))
  }

  /// A new token written over the one in `path` (a file of its own renamed into place, so a
  /// reader sees the old token or the new one, never half of one).
  package static func replace(at path: String) throws -> CaptureToken {
    CaptureToken(text: Secret.hex(try file.replace(at: path)))
  }

  /// The token in `path`, nil when there is no file; a file that is not 48 hex digits is an
  /// error (replace it from the page, or remove it).
  package static func read(_ path: String) throws -> CaptureToken? {
    try file.read(path).map { CaptureToken(text: Secret.hex($0)) }
  }
}
