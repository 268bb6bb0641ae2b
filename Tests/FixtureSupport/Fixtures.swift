import Foundation
import Testing

/// Finds `Fixtures/` through `#filePath` and compares output with golden files.
public enum Fixtures {
  public static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  /// A fixture file's bytes.
  public static func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: root.appendingPathComponent(path)))
  }

  /// The environment every config fixture is read with: nothing leaks in from the machine.
  public static let environment = [
    "PATH": "/nonexistent-clarissa-fixture-path",
    "CLARISSA_FIXTURE_EMPTY": "",
    "CLARISSA_FIXTURE_TOPIC": "deals",
  ]

  /// The `.yaml` files of a fixture folder, sorted.
  public static func yamlFiles(in folder: String) -> [String] {
    let url = root.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted()
  }

  /// Compares `actual` with the golden file; `CLARISSA_RECORD=1` rewrites it instead.
  public static func expectGolden(
    _ actual: String, at url: URL, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    if ProcessInfo.processInfo.environment["CLARISSA_RECORD"] == "1" {
      try actual.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record(
        "no golden file \(url.lastPathComponent); run with CLARISSA_RECORD=1 and review it",
        sourceLocation: sourceLocation)
      return
    }
    #expect(
      actual == expected, "\(url.lastPathComponent) differs:\n\(lineDiff(expected, actual))",
      sourceLocation: sourceLocation)
  }

  /// A small unified-style diff: the lines only in one side, with their numbers.
  public static func lineDiff(_ expected: String, _ actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [String] = []
    for index in 0..<max(old.count, new.count) {
      let a = index < old.count ? String(old[index]) : nil
      let b = index < new.count ? String(new[index]) : nil
      if a == b { continue }
      if let a { out.append("-\(index + 1): \(a)") }
      if let b { out.append("+\(index + 1): \(b)") }
    }
    return out.joined(separator: "\n")
  }
}
