import FixtureSupport
import Foundation
import Testing

/// What docs/architecture.md says of the code's structure, checked against the code so that the
/// doc cannot go stale: each C library wrapped by one module, and the store opened only where
/// the doc says. (The module edges, the server's independence from the engine and Core's rule
/// are in `ArchitectureDocTests`; a target's imports in `ManifestImportsTests`.)
@Suite struct StructureClaimsTests {
  /// The Swift files under `folders`, with their text, paths from the repository's root.
  static func sources(_ folders: [String] = ["Sources", "Sites"]) throws -> [(String, String)] {
    let root = TestTools.packageRoot
    var files: [(String, String)] = []
    for folder in folders {
      let base = root.appendingPathComponent(folder)
      for file in TestTools.swiftFiles(under: folder) {
        let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
        files.append(("\(folder)/\(file)", text))
      }
    }
    return files
  }

  /// The folder of the module a source file belongs to (`Sources/Curl`, `Sites`).
  static func module(of path: String) -> String {
    let parts = path.split(separator: "/")
    return parts.first == "Sites" ? "Sites" : parts.prefix(2).joined(separator: "/")
  }

  /// "The C libraries are reached through `systemLibrary` targets, each wrapped once": libyaml
  /// in YAML, libxml2 in Markup, libcurl in Curl, libsqlite3 and libpq in ListingStore.
  @Test func eachCLibraryIsImportedByOneModule() throws {
    let wrappers = [
      "CLibYAML": "Sources/YAML", "CLibXML2": "Sources/Markup", "CLibCurl": "Sources/Curl",
      "CSQLite": "Sources/ListingStore", "CPostgres": "Sources/ListingStore",
    ]
    let files = try Self.sources()
    for (library, module) in wrappers.sorted(by: { $0.key < $1.key }) {
      let importers = files.filter { _, text in
        text.split(separator: "\n").contains {
          ManifestImportsTests.importedModule(String($0)) == library
        }
      }.map(\.0)
      #expect(!importers.isEmpty, "no file imports \(library)")
      for path in importers where Self.module(of: path) != module {
        Issue.record("\(path) imports \(library), which docs/architecture.md says \(module) wraps")
      }
    }
  }

  /// "The store is opened in three places, and only there": StoreAccess, serve's own connection
  /// and `state migrate` (the store's own module and the benchmarks aside).
  @Test func theStoreIsOpenedWhereTheDocSays() throws {
    let allowed: Set<String> = [
      "Sources/ClarissaEngine/Run/StoreAccess.swift",
      "Sources/ClarissaCommands/ServeCommand.swift",
      "Sources/ClarissaCommands/StateMigrate.swift",
    ]
    let doc = try ArchitectureDocTests.document()
    for path in allowed { #expect(doc.contains(path), "docs/architecture.md names \(path)") }
    let opening = try Self.sources().filter { path, text in
      !path.hasPrefix("Sources/ListingStore/") && !path.hasPrefix("Sources/clarissa-bench/")
        && (text.contains("ListingStore.open(") || text.contains("PostgresStore.open("))
    }.map(\.0)
    #expect(Set(opening) == allowed, "the store is opened in \(opening.sorted())")
  }
}
