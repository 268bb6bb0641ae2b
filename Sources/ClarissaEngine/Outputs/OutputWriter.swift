import ClarissaCore
import Foundation

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
struct OutputWriter {
  let paths: OutputPaths
  let config: Config

  /// Writes every output; returns what could not be written.
  func write(_ state: State, now: Date) -> [String] {
    var problems: [String] = []
    if let folder = paths.atomFolder {
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for search in config.searches {
          let entries = state.recent.filter { $0.search == search.name }
          let feed = AtomFeed.render(
            title: "clarissa: \(search.name)",
            id: "urn:clarissa:search:\(AtomFeed.slug(search.name))",
            entries: entries, updated: entries.map(\.found).max() ?? now)
          try Self.replace(folder + "/\(AtomFeed.slug(search.name)).xml", with: feed)
        }
        let all = AtomFeed.render(
          title: "clarissa: all searches", id: "urn:clarissa:all", entries: state.recent,
          updated: state.recent.map(\.found).max() ?? now)
        try Self.replace(folder + "/all.xml", with: all)
      } catch {
        problems.append("cannot write the Atom feeds in '\(folder)': \(error.localizedDescription)")
      }
    }
    if let file = paths.htmlFile {
      do {
        try Self.replace(
          file, with: HTMLPage.render(state.recent, searches: config.searches.map(\.name), now: now)
        )
      } catch {
        problems.append("cannot write the HTML page '\(file)': \(error.localizedDescription)")
      }
    }
    return problems
  }

  /// Write to a temporary file and rename: a reader never sees half a file.
  static func replace(_ path: String, with text: String) throws {
    let temporary = path + ".tmp-\(getpid())"
    try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
    if rename(temporary, path) != 0 {
      unlink(temporary)
      throw CocoaError(.fileWriteUnknown)
    }
  }
}
