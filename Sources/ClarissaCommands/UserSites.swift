internal import Channels
internal import ClarissaConfig
internal import ClarissaCore
internal import Foundation
internal import SiteFormat
internal import Sites
internal import YAML

/// The sites a config can use: those shipped in the program and the user's own definitions, in
/// the config's `sites:` folder or else a `sites/` folder beside it. Read when a command starts,
/// so a new or mended definition needs no rebuild. The config file is read and parsed once, here:
/// its `sites:` is looked at first, then the config is loaded with these sites.
struct UserSites {
  /// Every site, the user's included.
  var catalog: SiteCatalog
  /// The user's definitions' problems (a broken file leaves its site out, never the others).
  var diagnostics: [Diagnostic]
  /// The definition files' text, for quoting lines in messages.
  var sources: [String: String]
  /// The config file, read and parsed.
  var file: ConfigFile

  /// The sites for the config at `config` (which need not exist: then `sites/` beside it).
  static func load(forConfig config: String) -> UserSites {
    let file = ConfigFile.read(path: config)
    let base = file.baseDirectory
    // Only a text `sites:` names a folder; any other value is the config load's to report.
    let node = file.topLevelValue("sites").flatMap { $0.scalar == nil ? nil : $0 }
    let folder = node?.scalar?.value
    let path =
      folder.map { $0.hasPrefix("/") ? $0 : (base as NSString).appendingPathComponent($0) }
      ?? (base as NSString).appendingPathComponent("sites")
    var diagnostics: [Diagnostic] = []
    var isFolder: ObjCBool = false
    if let node,
      !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        || !isFolder.boolValue
    {
      diagnostics.append(
        .error(
          "'sites: \(folder ?? "")' is not a folder (\(path)): it holds your own site definitions",
          at: SourceLocation(file: config, line: node.start.line, column: node.start.column)))
    }
    let (own, problems) = DefinitionLoader.sites(inFolder: path)
    var sites = merged(own, diagnostics: diagnostics + problems, file: file)
    sites.catalog.searched = [searched(path, named: folder, config: config)]
    return sites
  }

  /// The user's folder as a message names it: where it is, and whether it is there.
  private static func searched(_ path: String, named folder: String?, config: String) -> String {
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
    let why = folder == nil ? "beside \(config)" : "the config's 'sites:'"
    return "'\(path.isEmpty ? "sites" : path)' (\(why)"
      + (exists && isFolder.boolValue ? ")" : ", not there)")
  }

  /// The shipped sites with `own` added; a definition with a shipped declared site's id replaces
  /// it (a selector mended without waiting for a release), a Swift site's id is refused.
  static func merged(
    _ own: [any FeedSource], diagnostics: [Diagnostic], file: ConfigFile
  ) -> UserSites {
    var sites = Registry.sites.all
    var diagnostics = diagnostics
    for site in own {
      let origin = DefinitionLoader.file(of: site) ?? site.id
      if let index = sites.firstIndex(where: { $0.id == site.id }) {
        guard DefinitionLoader.file(of: sites[index]) != nil else {
          diagnostics.append(
            .error("'\(origin)' declares site '\(site.id)', which is built into clarissa", at: nil))
          continue
        }
        diagnostics.append(
          .warning("'\(origin)' replaces the shipped definition of '\(site.id)'", at: nil))
        sites[index] = site
      } else {
        sites.append(site)
      }
    }
    // The text of the files the diagnostics quote, for their source lines; no other is read.
    var sources: [String: String] = [:]
    for diagnostic in diagnostics {
      if let file = diagnostic.location?.file, sources[file] == nil {
        sources[file] = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
      }
    }
    return UserSites(
      catalog: SiteCatalog(sites), diagnostics: diagnostics, sources: sources, file: file)
  }

  /// `ConfigLoader.load` with these sites, their problems first.
  func loadConfig(environment: [String: String]) -> ConfigLoadResult {
    var result = ConfigLoader.load(
      file, environment: environment, sites: catalog, channels: ChannelRegistry.all)
    result.diagnostics = diagnostics + result.diagnostics
    result.sources.merge(sources) { first, _ in first }
    if diagnostics.hasErrors { result.config = nil }
    return result
  }
}
