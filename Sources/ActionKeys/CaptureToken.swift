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

  /// The token in `path`, made there (owner-only, 0600) when there is no file yet.
  package static func loadOrCreate(at path: String) throws -> CaptureToken {
    if let token = try read(path) { return token }
    return try make(at: path, replacing: false)
  }

  /// A new token written over the one in `path` (a file of its own renamed into place, so a
  /// reader sees the old token or the new one, never half of one).
  package static func replace(at path: String) throws -> CaptureToken {
    try make(at: path, replacing: true)
  }

  /// The token in `path`, nil when there is no file; a file that is not 48 hex digits is an
  /// error (replace it from the page, or remove it).
  package static func read(_ path: String) throws -> CaptureToken? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path), data.count <= 1024 else {
      throw ActionKey.Problem(description: "\(path): cannot read the capture token")
    }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard text.utf8.count == 48, text.utf8.allSatisfy(Self.isHexDigit) else {
      throw ActionKey.Problem(
        description: "\(path): the capture token must be 48 hex digits; remove the file to make "
          + "a new one (bookmarklets made so far then stop working)")
    }
    return CaptureToken(text: text.lowercased())
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
  }

  private static func make(at path: String, replacing: Bool) throws -> CaptureToken {
    let token = CaptureToken(text: Secret.hex(Secret.randomBytes(24)))
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty {
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    let target = replacing ? path + ".new-\(getpid())" : path
    // O_EXCL: two processes making the first token at once keep whichever was written first.
    let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0o600)
    if descriptor < 0 {
      if !replacing, errno == EEXIST, let token = try read(path) { return token }
      throw ActionKey.Problem(
        description: "\(path): cannot create the capture token: \(String(cString: strerror(errno)))"
      )
    }
    let line = token.text + "\n"
    let written = line.utf8CString.withUnsafeBufferPointer {
      write(descriptor, $0.baseAddress, $0.count - 1)
    }
    close(descriptor)
    guard written == line.utf8.count, !replacing || rename(target, path) == 0 else {
      unlink(target)
      throw ActionKey.Problem(description: "\(path): cannot write the capture token")
    }
    return token
  }
}
