public import ClarissaCore
internal import Foundation

/// Site definitions: those compiled into the program, and a user's own from a folder (`sites/`
/// next to `searches.yaml`, or the config's `sites:`), read when a command starts, no rebuild.
public enum DefinitionLoader {
  /// The sites of every `*.yaml` file in `folder`, and the problems of those that are broken
  /// (a broken file never stops the others). A missing folder has none.
  public static func sites(inFolder folder: String) -> (
    sites: [any FeedSource], diagnostics: [Diagnostic]
  ) {
    let manager = FileManager.default
    guard let names = try? manager.contentsOfDirectory(atPath: folder) else { return ([], []) }
    var sites: [any FeedSource] = []
    var diagnostics: [Diagnostic] = []
    for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
      let path = (folder as NSString).appendingPathComponent(name)
      let (site, problems) = self.site(atPath: path)
      diagnostics += problems
      if let site { sites.append(site) }
    }
    return (sites, diagnostics)
  }

  /// One definition file.
  public static func site(atPath path: String) -> (
    site: (any FeedSource)?, diagnostics: [Diagnostic]
  ) {
    guard let data = FileManager.default.contents(atPath: path) else {
      return (nil, [.error("cannot read the site definition '\(path)'", at: nil)])
    }
    let (definition, diagnostics) = DefinitionReader.read(Array(data), file: path)
    guard let site = definition.map(DeclaredSite.init) else { return (nil, diagnostics) }
    let problems = site.searchURLProblems()
    return (problems.isEmpty ? site : nil, diagnostics + problems)
  }
}
