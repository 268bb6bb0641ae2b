import ClarissaConfig
import ClarissaCore
import Foundation
import Sites
import YAML

// Benchmarks that print figures and never fail on time (the machines are shared and noisy).
// Each figure stands beside a reference measured in the same run:
//
//   swift build -c release && .build/release/clarissa-bench
//
// A hostile input is compared with a benign document of the same size; the cold start of
// `clarissa validate` with the cold start of `clarissa --version` (the process floor).

let benchmark = ConfigBenchmark()
benchmark.run()

struct ConfigBenchmark {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("clarissa-bench-\(getpid())")

  func run() {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("clarissa-bench: YAML and config (median of repeated runs, release build expected)\n")
    hostileInputs()
    thousandSearches()
  }

  private func hostileInputs() {
    let bomb = aliasBomb(levels: 12)
    let flatBomb = String(repeating: "x", count: bomb.utf8.count)
    report(
      "alias bomb (9^12 nodes if expanded), \(bomb.utf8.count) B", measure { YAMLReader.read(bomb) },
      reference: ("plain scalar of the same size", measure { YAMLReader.read(flatBomb) }))
    let deepFlow = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let deepBlock = String(repeating: "- ", count: 100_000) + "x"
    let flat = "[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]"
    report(
      "100,000-level flow nesting", measure { YAMLReader.read(deepFlow) },
      reference: ("100,000 flat items", measure { YAMLReader.read(flat) }))
    report(
      "100,000-level block nesting", measure { YAMLReader.read(deepBlock) },
      reference: ("100,000 flat items", measure { YAMLReader.read(flat) }))
  }

  private func thousandSearches() {
    let url = folder.appendingPathComponent("searches-1000.yaml")
    let text = thousandSearchConfig()
    try? text.write(to: url, atomically: true, encoding: .utf8)
    let bytes = Array(text.utf8)
    let environment = ProcessInfo.processInfo.environment
    let load = measure {
      ConfigLoader.load(
        bytes: bytes, name: "searches-1000.yaml", environment: environment, sites: Registry.sites)
    }
    report(
      "load 1,000-search config (\(bytes.count / 1024) KiB) in process", load,
      reference: ("YAML node tree alone", measure { YAMLReader.read(bytes) }))
    guard let clarissa = siblingBinary("clarissa") else {
      print("  (no clarissa binary next to this one: build it to time the cold start)")
      return
    }
    let validate = measure(runs: 15) {
      spawn(clarissa, ["validate", "--quiet", "--config", url.path])
    }
    let floor = measure(runs: 15) { spawn(clarissa, ["--version"]) }
    report(
      "cold start: clarissa validate on 1,000 searches", validate,
      reference: ("cold start: clarissa --version", floor))
  }

  // MARK: - Inputs

  private func aliasBomb(levels: Int) -> String {
    var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in 1...levels {
      let refs = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
      lines.append("a\(level): &a\(level) [\(refs)]")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func thousandSearchConfig() -> String {
    let areas = ["sfbay", "newyork", "chicago", "seattle", "boston", "austin", "denver", "portland"]
    var lines = [
      "version: 1", "cities:", "  west: [sfbay, seattle, portland]", "notify:",
      "  terminal: stdout", "blackout:",
      "  night: {timezone: America/Los_Angeles, from: \"22:00\", to: \"07:00\"}", "searches:",
    ]
    for index in 0..<1000 {
      lines += [
        "  - name: search-\(index)",
        "    query: item \(index)",
        "    category: sss",
        "    cities: [west, \(areas[index % areas.count])]",
        "    price: {min: \(index), max: \(index + 500)}",
        "    interval: \(15 + index % 45)m",
        "    notify: [terminal]",
        "    blackout: [night]",
        "    filters:",
        "      - include: 'model \\d+'",
        "        regex: true",
        "      - exclude: [broken, parts]",
      ]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: - Measuring

  private func measure(runs: Int = 9, _ body: () -> Any) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = body()
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return times.sorted()[runs / 2]
  }

  private func report(_ name: String, _ ms: Double, reference: (String, Double)) {
    let ratio = reference.1 > 0 ? ms / reference.1 : 0
    print(
      "  \(name): \(format(ms)) ms\n    beside \(reference.0): \(format(reference.1)) ms"
        + " (x\(format(ratio)))")
  }

  private func format(_ value: Double) -> String { String(format: "%.2f", value) }

  private func siblingBinary(_ name: String) -> String? {
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let path = me.deletingLastPathComponent().appendingPathComponent(name).path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  private func spawn(_ path: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
