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

  /// The key in `path`, made there (owner-only, 0600) when there is no file yet.
  package static func loadOrCreate(at path: String) throws -> ActionKey {
    if let key = try read(path) { return key }
    let bytes = Secret.randomBytes(32)
    let text = Secret.hex(bytes) + "\n"
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty {
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    // O_EXCL: two processes starting at once keep whichever key was written first.
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    if descriptor < 0 {
      if errno == EEXIST, let key = try read(path) { return key }
      throw Problem(
        description: "\(path): cannot create the action key: \(String(cString: strerror(errno)))")
    }
    let written = text.utf8CString.withUnsafeBufferPointer {
      write(descriptor, $0.baseAddress, $0.count - 1)
    }
    close(descriptor)
    guard written == text.utf8.count else {
      unlink(path)
      throw Problem(description: "\(path): cannot write the action key")
    }
    return ActionKey(bytes: bytes)
  }

  /// The key in `path`, nil when there is no file; a file that is not 64 hex digits is an
  /// error (never silently replaced: the buttons already sent would stop working).
  package static func read(_ path: String) throws -> ActionKey? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path), data.count <= 1024 else {
      throw Problem(description: "\(path): cannot read the action key")
    }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let digits = Array(text.utf8)
    guard digits.count == 64, let bytes = hexBytes(digits) else {
      throw Problem(
        description: "\(path): the action key must be 64 hex digits; remove the file to make a "
          + "new one (the buttons sent so far then stop working)")
    }
    return ActionKey(bytes: bytes)
  }

  private static func hexBytes(_ digits: [UInt8]) -> [UInt8]? {
    var bytes: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case 0x30...0x39: digit - 0x30
    case 0x61...0x66: digit - 0x61 + 10
    case 0x41...0x46: digit - 0x41 + 10
    default: nil
    }
  }
}
