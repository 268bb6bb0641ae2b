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
  /// in YAML, libxml2 in Markup, libcurl in Curl, libsqlite3 and libpq in ListingStore,
  /// libjpeg-turbo, libpng and libwebp in Photos.
  @Test func eachCLibraryIsImportedByOneModule() throws {
    let wrappers = [
      "CLibYAML": "Sources/YAML", "CLibXML2": "Sources/Markup", "CLibCurl": "Sources/Curl",
      "CSQLite": "Sources/ListingStore", "CPostgres": "Sources/ListingStore",
      "CTurboJPEG": "Sources/Photos", "CPNG": "Sources/Photos", "CWebP": "Sources/Photos",
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

  /// "Every import has an access level" (`internal` unless a declaration the file makes public or
  /// package shows the module's types), and a C library's only as `internal` or `private`.
  @Test func everyImportHasAnAccessLevel() throws {
    let cLibraries: Set<String> = [
      "CLibYAML", "CLibXML2", "CLibCurl", "CSQLite", "CPostgres", "CTurboJPEG", "CPNG", "CWebP",
    ]
    var imports = 0
    for (path, text) in try Self.sources() {
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        guard let module = ManifestImportsTests.importedModule(String(line)) else { continue }
        imports += 1
        let level = line.split(separator: " ").first.map(String.init) ?? ""
        let place = "\(path):\(number + 1)"
        #expect(ManifestImportsTests.accessLevels.contains(level), "\(place): \(line)")
        if cLibraries.contains(module) {
          #expect(["internal", "private"].contains(level), "\(place): \(line) leaks a C library")
        }
      }
    }
    #expect(imports > 900)
  }

  /// "`Mutex` is the one lock type", and each `@unchecked Sendable` left says why in a comment
  /// on the lines after it.
  @Test func oneLockTypeAndEveryUncheckedSendableSaysWhy() throws {
    let otherLocks = [
      "NSLock(", "NSRecursiveLock(", "NIOLock(", "NIOLockedValueBox(", "os_unfair_lock",
      "pthread_mutex_t", "OSAllocatedUnfairLock(",
    ]
    let all = try Self.sources(["Sources", "Sites", "Tests"]).filter { path, _ in
      !path.contains("/.build") && path != "Tests/ClarissaCommandsTests/StructureClaimsTests.swift"
    }
    for (path, text) in all {
      for lock in otherLocks where text.contains(lock) {
        Issue.record("\(path) uses \(lock): docs/architecture.md says Mutex is the one lock type")
      }
    }
    var unchecked = 0
    for (path, text) in all where !path.hasPrefix("Tests/") {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for (number, line) in lines.enumerated() where line.contains("@unchecked Sendable") {
        unchecked += 1
        let after = lines.dropFirst(number + 1).prefix(2).map {
          $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(
          after.contains { $0.hasPrefix("//") && !$0.hasPrefix("///") },
          "\(path):\(number + 1): @unchecked Sendable without a comment saying why")
      }
    }
    #expect(unchecked > 0)
  }
}
