internal import Channels
internal import ClarissaConfig
internal import ClarissaCore
internal import Foundation
internal import Sites
internal import YAML

/// YAML and config figures: hostile inputs beside benign ones of the same size, and the
/// 1,000-search validate beside the process floor (`clarissa --version`, `true`) and, in
/// process, beside the YAML tree and libyaml's parse alone.
struct ConfigBenchmark {
  let folder: URL

  func run() {
    print("YAML and config")
    hostileInputs()
    thousandSearches()
  }

  private func hostileInputs() {
    let bomb = aliasBomb(levels: 12)
    let flatBomb = String(repeating: "x", count: bomb.utf8.count)
    Bench.report(
      "alias bomb (9^12 nodes if expanded), \(bomb.utf8.count) B",
      Bench.measure { YAMLReader.read(bomb) },
      reference: ("plain scalar of the same size", Bench.measure { YAMLReader.read(flatBomb) }))
    let deepFlow = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let deepBlock = String(repeating: "- ", count: 100_000) + "x"
    let flat = "[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]"
    Bench.report(
      "100,000-level flow nesting", Bench.measure { YAMLReader.read(deepFlow) },
      reference: ("100,000 flat items", Bench.measure { YAMLReader.read(flat) }))
    Bench.report(
      "100,000-level block nesting", Bench.measure { YAMLReader.read(deepBlock) },
      reference: ("100,000 flat items", Bench.measure { YAMLReader.read(flat) }))
  }

  private func thousandSearches() {
    let url = folder.appendingPathComponent("searches-1000.yaml")
    let text = thousandSearchConfig()
    try? text.write(to: url, atomically: true, encoding: .utf8)
    let bytes = Array(text.utf8)
    let environment = ProcessInfo.processInfo.environment
    let load = Bench.measure {
      ConfigLoader.load(
        bytes: bytes, name: "searches-1000.yaml", environment: environment, sites: Registry.sites,
        channels: ChannelRegistry.all)
    }
    let tree = Bench.measure { YAMLReader.read(bytes) }
    Bench.report(
      "load 1,000-search config (\(bytes.count / 1024) KiB) in process", load,
      reference: ("YAML node tree alone", tree))
    Bench.report(
      "YAML node tree of it", tree,
      reference: ("libyaml's events alone", Bench.measure { YAMLReader.eventCount(bytes) as Any }))
    guard let clarissa = Bench.siblingBinary("clarissa") else {
      print("  (no clarissa binary next to this one: build it to time the cold start)")
      return
    }
    coldStarts(clarissa, config: url.path)
  }

  /// Whole processes, each command once per round: `validate` of the 1,000 searches (target:
  /// under 50 ms) beside the same binary's `--version` (its start: loading, linking, the
  /// runtime) and `true` (a process start alone).
  private func coldStarts(_ clarissa: String, config: String) {
    var commands = [
      (clarissa, ["validate", "--quiet", "--config", config]), (clarissa, ["--version"]),
    ]
    let truePath = Bench.onPath("true")
    if let truePath { commands.append((truePath, [])) }
    if FileManager.default.fileExists(atPath: "searches.yaml") {
      commands.append((clarissa, ["validate", "--quiet", "--config", "searches.yaml"]))
    }
    let times = Bench.spawnTimes(runs: 21, commands)
    var references = [("cold start: clarissa --version", times[1])]
    if truePath != nil { references.append(("process start: true", times[2])) }
    Bench.reportRuns(
      "cold start: clarissa validate on 1,000 searches (target < 50 ms)", times[0],
      references: references)
    if let bundled = times.dropFirst(truePath == nil ? 2 : 3).first {
      Bench.reportRuns(
        "cold start: clarissa validate on the bundled searches.yaml", bundled,
        references: [("cold start: clarissa --version", times[1])])
    }
  }

  /// For profilers: only the 1,000-search load, repeated.
  func profileLoad(times: Int) {
    let bytes = Array(thousandSearchConfig().utf8)
    let environment = ProcessInfo.processInfo.environment
    for _ in 0..<times {
      let start = Date()
      defer { if times < 5 { print(Date().timeIntervalSince(start) * 1000, "ms") } }
      _ = ConfigLoader.load(
        bytes: bytes, name: "searches-1000.yaml", environment: environment, sites: Registry.sites,
        channels: ChannelRegistry.all)
    }
  }

  /// The 1,000-search config at `path`.
  func writeThousandSearches(to path: String) {
    do {
      try thousandSearchConfig().write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
      print("cannot write \(path): \(error)")
    }
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
    let areas = [
      "sfbay", "newyork", "chicago", "seattle", "boston", "austin", "denver", "portland",
    ]
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
}
