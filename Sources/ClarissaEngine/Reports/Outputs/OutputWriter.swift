internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// Absolute paths of the files a run writes.
public struct OutputPaths: Sendable {
  /// The folder for Atom feeds, if any.
  public var atomFolder: String?
  /// The HTML page, if any.
  public var htmlFile: String?

  /// Creates paths.
  public init(atomFolder: String?, htmlFile: String?) {
    self.atomFolder = atomFolder
    self.htmlFile = htmlFile
  }
}

/// Writes the Atom feeds (one per search and `all.xml`) and the HTML page from the state's
/// recent listings, each file replaced atomically.
struct OutputWriter: Sendable {
  let paths: OutputPaths
  let config: Config

  /// Writes every output; returns what could not be written.
  func write(_ recent: [RecentListing], now: Date) -> [String] {
    var problems: [String] = []
    if let folder = paths.atomFolder {
      do {
        try Self.makeFolders(folder)
        for search in config.searches {
          let entries = recent.filter { $0.search == search.name }
          let file = "\(AtomFeed.slug(search.name)).xml"
          let feed = AtomFeed.render(
            title: "clarissa: \(search.name)",
            id: "urn:clarissa:search:\(AtomFeed.slug(search.name))", file: file,
            entries: entries, updated: entries.map(\.found).max() ?? now)
          try Self.replace(folder + "/\(file)", with: feed)
        }
        let all = AtomFeed.render(
          title: "clarissa: all searches", id: "urn:clarissa:all", file: "all.xml",
          entries: recent,
          updated: recent.map(\.found).max() ?? now)
        try Self.replace(folder + "/all.xml", with: all)
      } catch {
        problems.append(
          "cannot write the Atom feeds in '\(folder)': \(Self.reason(error, about: folder))")
      }
    }
    if let file = paths.htmlFile {
      do {
        let folder = (file as NSString).deletingLastPathComponent
        if !folder.isEmpty { try Self.makeFolders(folder) }
        try Self.replace(
          file, with: HTMLPage.render(recent, searches: config.searches.map(\.name), now: now)
        )
      } catch {
        problems.append("cannot write the HTML page '\(file)': \(Self.reason(error, about: file))")
      }
    }
    return problems
  }

  /// `mkdir -p`, saying which part is in the way and why.
  static func makeFolders(_ path: String) throws {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      if isFolder.boolValue { return }
      throw OutputError(path: nil, reason: "'\(path)' is a file, not a folder")
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try makeFolders(parent) }
    if mkdir(path, 0o755) != 0, errno != EEXIST { throw OutputError.system(path) }
  }

  /// Written through `FileWriting.replace`: a reader never sees half a file.
  static func replace(_ path: String, with text: String) throws {
    do {
      try FileWriting.replace(path) { write in try write(Array(text.utf8)) }
    } catch {
      throw OutputError(path: error.path, reason: error.reason.lowercased())
    }
  }

  /// A file system error in words: the reason the system gave, lower case.
  static func reason(_ error: any Error, about target: String) -> String {
    if let error = error as? OutputError {
      return error.path == target || error.path == nil
        ? error.reason : "'\(error.path ?? "")': \(error.reason)"
    }
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(code))).lowercased()
    }
    switch (error as? CocoaError)?.code {
    case .fileNoSuchFile?, .fileReadNoSuchFile?: return "no such file or directory"
    case .fileWriteNoPermission?, .fileReadNoPermission?: return "permission denied"
    case .fileWriteVolumeReadOnly?: return "read-only file system"
    case .fileWriteOutOfSpace?: return "no space left on device"
    case .fileWriteFileExists?: return "a file is in the way"
    default: return error.localizedDescription
    }
  }
}

/// Why an output file could not be written, and where.
struct OutputError: Error {
  var path: String?
  var reason: String

  static func system(_ path: String) -> OutputError {
    OutputError(path: path, reason: String(cString: strerror(errno)).lowercased())
  }
}
