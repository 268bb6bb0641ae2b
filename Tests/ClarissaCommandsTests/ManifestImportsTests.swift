import FixtureSupport
import Foundation
import Testing

/// Package.swift declares what each module imports, no more and no less: a module that imports
/// one it does not declare builds only by the luck of the build order, and one declared but
/// never imported costs every build a link it does not need. Only an executable may be declared
/// without an import (a test that runs the built `clarissa` needs it built first).
@Suite struct ManifestImportsTests {
  /// The modules each target's Swift files import, among the package's own targets and the
  /// products of its dependencies (Foundation, Testing and the like are the toolchain's).
  static func imports(of module: ModuleMap.Module, known: Set<String>) -> [String: [String]] {
    guard let folder = module.folder else { return [:] }
    let root = TestTools.packageRoot.appendingPathComponent(folder)
    var found: [String: [String]] = [:]
    for file in TestTools.swiftFiles(under: folder) {
      let text = (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? ""
      for line in text.split(separator: "\n") {
        guard let name = importedModule(String(line)), known.contains(name) else { continue }
        found[name, default: []].append("\(folder)/\(file)")
      }
    }
    return found
  }

  /// The module an `import` line names (`import X`, `public import X`, `@testable import X`,
  /// `import struct X.Y`), or nil for any other line.
  static func importedModule(_ line: String) -> String? {
    var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
    while let first = words.first, first.hasPrefix("@") || Self.accessLevels.contains(first) {
      words.removeFirst()
    }
    guard words.first == "import", words.count >= 2 else { return nil }
    let path = words.count >= 3 && Self.declarationKinds.contains(words[1]) ? words[2] : words[1]
    return path.split(separator: ".").first.map(String.init)
  }

  static let accessLevels: Set<String> = [
    "public", "package", "internal", "fileprivate", "private",
  ]
  static let declarationKinds: Set<String> = [
    "struct", "class", "enum", "protocol", "func", "var", "let", "typealias",
  ]

  @Test func importLinesAreRead() {
    #expect(Self.importedModule("import YAML") == "YAML")
    #expect(Self.importedModule("public import ClarissaCore") == "ClarissaCore")
    #expect(Self.importedModule("@testable import Sites") == "Sites")
    #expect(Self.importedModule("  import struct NIOCore.ByteBuffer") == "NIOCore")
    #expect(Self.importedModule("// import YAML") == nil)
    #expect(Self.importedModule("let important = 1") == nil)
  }

  @Test func eachTargetDeclaresExactlyWhatItImports() throws {
    let package = try ArchitectureDocTests.package.get()
    let known = Set(package.modules.map(\.name))
      .union(package.modules.flatMap(\.dependencies))
    let executables = Set(package.modules.filter { $0.kind == "executable" }.map(\.name))
    var checked = 0
    for module in package.modules where module.folder != nil {
      let imported = Self.imports(of: module, known: known)
      checked += 1
      for (name, files) in imported.sorted(by: { $0.key < $1.key })
      where !module.dependencies.contains(name) && name != module.name {
        Issue.record(
          "Package.swift: '\(module.name)' imports '\(name)' (\(files.first ?? "")) without declaring it"
        )
      }
      for name in module.dependencies.sorted()
      where imported[name] == nil && !executables.contains(name) {
        Issue.record(
          "Package.swift: '\(module.name)' declares '\(name)' and no file of it imports it")
      }
    }
    #expect(checked > 20, "every target with sources is checked (\(checked))")
  }
}
