internal import Foundation
public import YAML

/// A config file read from disk and parsed once. Commands look at its `sites:` (the folder of the
/// user's own site definitions) before loading it with those sites: both read this one parse,
/// which for a 1,000-search file is a third of `clarissa validate`'s work.
public struct ConfigFile: Sendable {
  /// What messages call the file (its path unless told otherwise).
  public let name: String
  /// The folder the file is in: relative paths in it are read against it.
  public let baseDirectory: String
  /// Why the file could not be read (too large, unreadable, not there); nil when it was read.
  public let problem: String?
  /// The file's bytes (empty when it could not be read).
  let bytes: [UInt8]
  /// The YAML document (nil when the file could not be read).
  public let document: YAMLDocument?

  /// Reads and parses the file at `path`; `displayName` is what messages call it.
  public static func read(path: String, displayName: String? = nil) -> ConfigFile {
    let name = displayName ?? path
    let folder = (path as NSString).deletingLastPathComponent
    func failure(_ problem: String) -> ConfigFile {
      ConfigFile(name: name, baseDirectory: folder, problem: problem, bytes: [], document: nil)
    }
    do {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      let limit = ConfigLoader.maxFileBytes
      if let size = attributes[.size] as? Int, size > limit {
        return failure("'\(name)' is \(size) bytes; a config may be at most \(limit)")
      }
      guard let data = FileManager.default.contents(atPath: path) else {
        return failure("cannot read '\(name)'")
      }
      let bytes = Array(data)
      return ConfigFile(
        name: name, baseDirectory: folder, problem: nil, bytes: bytes,
        document: YAMLReader.read(bytes))
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? "cannot read" : "no such file"
      return failure("\(reason) '\(name)'")
    }
  }

  /// A top-level key's value, read from the parsed document (nil when the file did not parse).
  public func topLevelValue(_ key: String) -> Node? {
    document?.root?.mapping?.first { $0.key.scalar?.value == key }?.value
  }
}
