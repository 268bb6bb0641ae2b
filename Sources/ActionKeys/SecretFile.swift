internal import ClarissaCore
internal import Foundation

/// A secret kept as hex digits in a file only its owner may read, made on first need: the
/// action key (``ActionKey``, 32 bytes) and the bookmarklet's token (``CaptureToken``, 24
/// bytes). `name` words the file's errors ("the action key"), `voids` what replacing it
/// voids ("the buttons sent so far").
struct SecretFile {
  /// What the file holds, as the errors name it.
  let name: String
  /// How many bytes the secret has (twice as many hex digits in the file).
  let count: Int
  /// What stops working when the file is replaced.
  let voids: String

  /// The secret in `path`, nil when there is no file; a file that is not `2 × count` hex
  /// digits is an error (never silently replaced).
  func read(_ path: String) throws -> [UInt8]? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    guard let data = FileManager.default.contents(atPath: path), data.count <= 1024 else {
      throw ActionKey.Problem(description: "\(path): cannot read \(name)")
    }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let digits = Array(text.utf8)
    guard digits.count == 2 * count, let bytes = Hex.bytes(text) else {
      throw ActionKey.Problem(
        description: "\(path): \(name) must be \(2 * count) hex digits; remove the file to make "
          + "a new one (\(voids) then stop working)")
    }
    return bytes
  }

  /// The secret in `path`, made there (owner-only, 0600) when there is no file yet.
  func loadOrCreate(at path: String) throws -> [UInt8] {
    if let bytes = try read(path) { return bytes }
    return try make(at: path, replacing: false)
  }

  /// A new secret written over the one in `path` (a file of its own renamed into place, so a
  /// reader sees the old secret or the new one, never half of one).
  func replace(at path: String) throws -> [UInt8] {
    try make(at: path, replacing: true)
  }

  private func make(at path: String, replacing: Bool) throws -> [UInt8] {
    let bytes = Secret.randomBytes(count)
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty {
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    let target = replacing ? path + ".new-\(getpid())" : path
    // O_EXCL: two processes making the first secret at once keep whichever was written first.
    let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    if descriptor < 0 {
      if !replacing, errno == EEXIST, let kept = try read(path) { return kept }
      throw ActionKey.Problem(
        description: "\(path): cannot create \(name): \(String(cString: strerror(errno)))")
    }
    let line = Secret.hex(bytes) + "\n"
    let written = line.utf8CString.withUnsafeBufferPointer {
      write(descriptor, $0.baseAddress, $0.count - 1)
    }
    close(descriptor)
    guard written == line.utf8.count, !replacing || rename(target, path) == 0 else {
      unlink(target)
      throw ActionKey.Problem(description: "\(path): cannot write \(name)")
    }
    return bytes
  }
}
