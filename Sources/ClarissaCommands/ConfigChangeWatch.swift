internal import ActionKeys
internal import Foundation
internal import Synchronization

/// Notices that the config file changed, as a SIGHUP would say it: `watch` asks before each
/// pass and once a second while it waits, and re-reads the config when the file's SHA-256 is
/// not the one it last saw (the page's editor saved it, or a person did). A config is a few
/// kilobytes: hashing it takes microseconds, and a change of the same size within the same
/// second is not missed, as it would be by size and modification time.
final class ConfigChangeWatch: Sendable {
  /// The config file.
  let path: String
  /// The hash last seen (nil: the file could not be read).
  private let seen: Mutex<String?>

  init(path: String) {
    self.path = path
    seen = Mutex(Self.stamp(path))
  }

  /// The file's SHA-256 in hex, or nil when it cannot be read.
  static func stamp(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { Secret.hex(SHA256.hash(Array($0))) }
  }

  /// Whether the file is not what it was when last asked (or made).
  func changed() -> Bool {
    let now = Self.stamp(path)
    return seen.withLock { seen in
      defer { seen = now }
      return seen != now
    }
  }
}
