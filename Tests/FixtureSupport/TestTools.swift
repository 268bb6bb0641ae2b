import Foundation

/// Finds the helper programs some tests drive (apprise, a Python with aiosmtpd, check-jsonschema).
///
/// `.ci/run` installs the Python ones into a virtual environment at `.build/venv`, never into the
/// system's Python; a developer may have them on `PATH` instead. Under CI (`CI` set), a test whose
/// tool is missing must fail rather than skip, so that CI never passes without running it.
public enum TestTools {
  /// The package's root folder (the one holding `Package.swift`).
  public static let packageRoot = Fixtures.root.deletingLastPathComponent()

  /// The virtual environment's `bin` folder that `.ci/run` fills.
  public static let venvBin = packageRoot.appendingPathComponent(".build/venv/bin")

  /// The Swift files under `folder` (a path from `root`, the repository's by default), as paths
  /// from `folder`, sorted: what the tests that check the repository's structure read.
  public static func swiftFiles(under folder: String, in root: URL = packageRoot) -> [String] {
    let path = root.appendingPathComponent(folder).path
    let files = FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
    return files.filter { $0.hasSuffix(".swift") }.sorted()
  }

  /// The full path of `name`: the virtual environment first, then `PATH`; nil when absent.
  public static func path(_ name: String) -> String? {
    let venv = venvBin.appendingPathComponent(name).path
    if FileManager.default.isExecutableFile(atPath: venv) { return venv }
    let search = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in search.split(separator: ":") {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// A Python that imports `module` (the `.build/venv` one `.ci/run` fills, or one on PATH);
  /// nil when there is none.
  public static func python(importing module: String) -> String? {
    guard let python = path("python3") else { return nil }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: python)
    probe.arguments = ["-c", "import \(module)"]
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return nil }
    probe.waitUntilExit()
    return probe.terminationStatus == 0 ? python : nil
  }

  /// True when running under CI, where a missing tool is a failure, not a skip.
  public static var underCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

  /// Whether check-jsonschema (PyPI) accepts `file` under the schema in `schemaFile`; nil when
  /// the tool is not installed.
  public static func checkJSONSchema(schemaFile: String, file: String) throws -> Bool? {
    guard let tool = path("check-jsonschema") else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["--schemafile", schemaFile, file]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// What a program said and how it ended.
  public struct Outcome: Sendable {
    /// Its exit status.
    public var status: Int32
    /// Its standard output.
    public var stdout: String
    /// Its standard error.
    public var stderr: String
  }

  /// Runs `program` with `arguments` (in `folder` and with `environment` when given; else as
  /// this process) to its end, keeping what it wrote.
  public static func run(
    _ program: URL, _ arguments: [String], environment: [String: String]? = nil,
    in folder: URL? = nil
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}
