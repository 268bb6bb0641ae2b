import FixtureSupport
import Foundation
import Testing

/// docs/architecture.md draws the modules as Package.swift declares them (read by SwiftPM
/// itself, `swift package dump-package`), its first list points down, and every path it names
/// is in the repository.
@Suite struct ArchitectureDocTests {
  static let file = "docs/architecture.md"

  static func document() throws -> String {
    try String(
      contentsOf: TestTools.packageRoot.appendingPathComponent(file), encoding: .utf8)
  }

  /// Package.swift's targets, read once for the suite.
  static let package: Result<ModuleMap, any Error> = Result { try dumpPackage() }

  @Test func theDocListsEveryTargetOfPackageSwiftAndNoOther() throws {
    let doc = ModuleMap.read(markdown: try Self.document(), file: Self.file)
    let package = try Self.package.get()
    #expect(doc.problems.isEmpty, "\(doc.problems.joined(separator: "\n"))")
    let drawn = Set(doc.modules.map(\.name))
    let declared = Set(package.modules.map(\.name))
    #expect(
      declared.subtracting(drawn).isEmpty,
      "targets of Package.swift missing from \(Self.file)'s module lists: \(declared.subtracting(drawn).sorted())"
    )
    for extra in doc.modules where !declared.contains(extra.name) {
      Issue.record("\(Self.file):\(extra.line): '\(extra.name)' is no target of Package.swift")
    }
  }

  @Test func eachModuleDependsOnWhatTheDocDraws() throws {
    let doc = ModuleMap.read(markdown: try Self.document(), file: Self.file)
    let package = try Self.package.get()
    for drawn in doc.modules {
      guard let declared = package.module(drawn.name) else { continue }
      let missing = declared.dependencies.subtracting(drawn.dependencies).sorted()
      let extra = drawn.dependencies.subtracting(declared.dependencies).sorted()
      #expect(
        missing.isEmpty && extra.isEmpty,
        "\(Self.file):\(drawn.line): '\(drawn.name)' depends in Package.swift on \(missing) too, and not on \(extra)"
      )
    }
  }

  /// "Dependencies point down only": a module of the first list depends on none above it.
  @Test func theFirstListPointsDown() throws {
    let doc = ModuleMap.read(markdown: try Self.document(), file: Self.file)
    let first = doc.modules.filter { $0.list == 0 }
    #expect(first.count > 10, "the first list of \(Self.file) is the module map")
    for module in first {
      for name in module.dependencies.sorted() {
        guard let dependency = first.first(where: { $0.name == name }) else { continue }
        #expect(
          dependency.place > module.place,
          "\(Self.file):\(module.line): '\(module.name)' depends on '\(name)', listed above it")
      }
    }
  }

  /// The web interface reads the store without the fetcher: nothing `Serve` depends on, however
  /// indirectly, is the engine or libcurl.
  @Test func theWebInterfaceLinksNeitherTheEngineNorLibcurl() throws {
    let package = try Self.package.get()
    var reached: Set<String> = []
    var next = ["Serve"]
    while let name = next.popLast() {
      for dependency in package.module(name)?.dependencies ?? []
      where reached.insert(dependency).inserted {
        next.append(dependency)
      }
    }
    #expect(reached.contains("ListingStore"), "Serve reads the store through ListingStore")
    #expect(
      reached.isDisjoint(with: ["ClarissaEngine", "CLibCurl"]),
      "Serve depends on \(reached.intersection(["ClarissaEngine", "CLibCurl"]).sorted())")
  }

  /// The rule for `ClarissaCore` (docs/architecture.md, "What may enter"), as far as a test
  /// can tell: each of its files imports Foundation (and Synchronization, for `Mutex`) and
  /// nothing else, and none reads or writes a file, starts a process or reads the environment.
  @Test func coreImportsOnlyFoundationAndDoesNoIO() throws {
    let root = TestTools.packageRoot.appendingPathComponent("Sources/ClarissaCore")
    let importLine = try Regex(#"^\s*(@\w+\s+)?((public|package|internal)\s+)?import\s+(\w+)"#)
    let io = try Regex(
      #"(^|[^\w])(FileManager|FileHandle|ProcessInfo|Process|URLSession)([^\w]|$)"#
        + #"|(^|[^\w.])(open|fopen|popen|getenv|setenv|unlink|system|dlopen)\("#
        + #"|(Data|String)\(contentsOf|contentsOfFile|toFile:|\.write\(to"#)
    let quotedText = try Regex(#""[^"]*""#)
    var files = 0
    for name in TestTools.swiftFiles(under: "Sources/ClarissaCore") {
      files += 1
      let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
      for (index, line) in text.components(separatedBy: "\n").enumerated() {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { continue }
        let place = "Sources/ClarissaCore/\(name):\(index + 1)"
        if let found = code.firstMatch(of: importLine), let module = found.output[4].substring,
          module != "Foundation", module != "Synchronization"
        {
          Issue.record("\(place): ClarissaCore imports \(module); only Foundation may be imported")
        }
        let said = code.replacing(quotedText, with: "\"\"")
        if let found = said.firstMatch(of: io) {
          let call = String(found.output[0].substring ?? "").trimmingCharacters(in: .whitespaces)
          Issue.record("\(place): '\(call)' is I/O, which Core does not do")
        }
      }
    }
    #expect(files > 20, "Sources/ClarissaCore holds the vocabulary")
  }

  /// The doc stands alone: no path out of the repository, and every path or Swift file it
  /// names exists.
  @Test func everyPathTheDocNamesIsInTheRepository() throws {
    let text = try Self.document()
    #expect(!text.contains("../"), "\(Self.file) points outside the repository")
    let root = TestTools.packageRoot
    let swiftFiles = Self.swiftFileNames(under: ["Sources", "Sites", "Tests"], in: root)
    for (line, token) in Self.quoted(text) where !token.contains("<") && !token.contains("*") {
      let first = token.split(separator: "/").first.map(String.init) ?? ""
      let absent =
        token.contains("/") && Self.topFolders.contains(first)
        ? !FileManager.default.fileExists(atPath: root.appendingPathComponent(token).path)
        : !token.contains("/") && !token.contains(" ") && token.hasSuffix(".swift")
          && !swiftFiles.contains(token)
      if absent { Issue.record("\(Self.file):\(line): '\(token)' is not in the repository") }
    }
  }

  static let topFolders: Set<String> = [
    "Sources", "Sites", "Tests", "Fixtures", "docs", "examples", ".ci",
  ]

  /// Every text between backquotes, with its line.
  static func quoted(_ text: String) -> [(line: Int, token: String)] {
    text.components(separatedBy: "\n").enumerated().flatMap { index, line in
      line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 1 }.map { (index + 1, String($0.element)) }
    }
  }

  static func swiftFileNames(under folders: [String], in root: URL) -> Set<String> {
    var names: Set<String> = []
    for folder in folders {
      for file in TestTools.swiftFiles(under: folder, in: root) {
        names.insert((file as NSString).lastPathComponent)
      }
    }
    return names
  }

  /// `swift package dump-package` of this package, in a scratch folder of its own (so it never
  /// waits on the `.build` that `swift test` holds).
  static func dumpPackage() throws -> ModuleMap {
    guard let swift = TestTools.path("swift") else {
      throw ModuleMap.MapError(description: "no 'swift' on PATH to read Package.swift with")
    }
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-dump-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let dumped = try TestTools.run(
      URL(fileURLWithPath: swift),
      [
        "package", "--package-path", TestTools.packageRoot.path, "--scratch-path", scratch.path,
        "dump-package",
      ])
    guard dumped.status == 0 else {
      throw ModuleMap.MapError(description: "swift package dump-package failed: \(dumped.stderr)")
    }
    return try ModuleMap.read(dumpedPackage: Data(dumped.stdout.utf8))
  }
}
