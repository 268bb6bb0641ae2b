public import ClarissaCore
internal import Foundation
internal import YAML

/// What reading a config produced: the config when it has no errors, and every diagnostic.
public struct ConfigLoadResult: Sendable {
  /// The config, or nil when any error was found.
  public var config: Config?
  /// Errors and warnings in file order.
  public var diagnostics: [Diagnostic]
  /// The file's text by its display name, for quoting source lines in messages.
  public var sources: [String: String]
}

/// Reads `searches.yaml` into a ``Config``, collecting every problem of the file in one pass.
/// It is handed the sites a search may name and the channel kinds a `notify` URL may be of
/// (`Registry.sites` and `ChannelRegistry.all`, from the command line): it knows none itself.
public enum ConfigLoader {
  /// Files larger than this are refused before parsing (a config is a few kilobytes).
  public static let maxFileBytes = 8 << 20

  /// Reads the file at `path`; `displayName` is what messages call it (default: the path).
  public static func load(
    path: String, displayName: String? = nil, environment: [String: String],
    sites: SiteCatalog, channels: [any ChannelKind]
  ) -> ConfigLoadResult {
    load(
      ConfigFile.read(path: path, displayName: displayName), environment: environment, sites: sites,
      channels: channels)
  }

  /// Loads a file already read and parsed (``ConfigFile/read(path:displayName:)``).
  public static func load(
    _ file: ConfigFile, environment: [String: String], sites: SiteCatalog,
    channels: [any ChannelKind]
  ) -> ConfigLoadResult {
    guard file.problem == nil, let document = file.document else {
      return failure(file.name, file.problem ?? "cannot read '\(file.name)'")
    }
    return load(
      bytes: file.bytes, document: document, name: file.name, baseDirectory: file.baseDirectory,
      environment: environment, sites: sites, channels: channels)
  }

  /// Reads config text already in memory.
  public static func load(
    bytes: [UInt8], name: String, baseDirectory: String = ".", environment: [String: String],
    sites: SiteCatalog, channels: [any ChannelKind]
  ) -> ConfigLoadResult {
    load(
      bytes: bytes, document: YAMLReader.read(bytes), name: name, baseDirectory: baseDirectory,
      environment: environment, sites: sites, channels: channels)
  }

  private static func load(
    bytes: [UInt8], document: YAMLDocument, name: String, baseDirectory: String,
    environment: [String: String], sites: SiteCatalog, channels: [any ChannelKind]
  ) -> ConfigLoadResult {
    let text = String(decoding: bytes, as: UTF8.self)
    var diagnostics = document.problems.map { diagnostic(for: $0, in: name) }
    var config: Config?
    var sources = [name: text]
    if let root = document.root {
      let reader = ConfigReader(
        file: name, text: text, baseDirectory: baseDirectory, environment: environment,
        sites: sites,
        channels: channels)
      config = reader.read(root)
      diagnostics += reader.diagnostics
      sources.merge(reader.extraSources) { own, _ in own }
    } else if document.problems.isEmpty {
      diagnostics.append(
        .error(
          "'\(name)' holds no settings; start with 'version: 1' and a 'searches:' list",
          at: SourceLocation(file: name, line: 1, column: 1)))
    }
    diagnostics = unique(diagnostics).sortedByLocation()
    return ConfigLoadResult(
      config: diagnostics.hasErrors ? nil : config, diagnostics: diagnostics, sources: sources)
  }

  private static func failure(_ name: String, _ message: String) -> ConfigLoadResult {
    ConfigLoadResult(config: nil, diagnostics: [.error(message, at: nil)], sources: [:])
  }

  private static func diagnostic(for problem: YAMLProblem, in file: String) -> Diagnostic {
    let location = SourceLocation(file: file, line: problem.mark.line, column: problem.mark.column)
    let notes = problem.notes.map {
      Diagnostic.Note(
        $0.message, at: SourceLocation(file: file, line: $0.mark.line, column: $0.mark.column))
    }
    return .error(problem.message, at: location, notes: notes)
  }

  /// A value from `defaults` or a shared group is checked once per search: report it once.
  private static func unique(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    var seen = Set<Diagnostic>()
    return diagnostics.filter { seen.insert($0).inserted }
  }
}
