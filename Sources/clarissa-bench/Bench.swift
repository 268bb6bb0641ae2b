internal import Foundation

/// Timing and reporting shared by the benchmarks: medians of repeated runs, printed beside a
/// reference measured in the same run, never judged against a fixed time.
enum Bench {
  /// Median wall time of `runs` calls, in milliseconds.
  static func measure(runs: Int = 9, _ body: () -> Any) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = body()
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return times.sorted()[runs / 2]
  }

  /// Fastest wall time of `runs` calls, in milliseconds.
  static func fastest(runs: Int, _ body: () -> Void) -> Double {
    (0..<runs).map { _ in
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }.min() ?? 0
  }

  /// Wall times of `runs` rounds in which each program of `commands` is run once, in turn (so
  /// that a busy moment of the machine falls on all of them alike), in milliseconds; one list
  /// per command.
  static func spawnTimes(runs: Int, _ commands: [(String, [String])]) -> [[Double]] {
    var times = Array(repeating: [Double](), count: commands.count)
    for _ in 0..<runs {
      for (index, command) in commands.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        spawn(command.0, command.1)
        times[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      }
    }
    return times
  }

  /// "name: median x ms, fastest y ms of N / beside reference: ... (xN, of the medians)".
  static func reportRuns(_ name: String, _ times: [Double], references: [(String, [Double])]) {
    func figures(_ times: [Double]) -> String {
      let sorted = times.sorted()
      guard let fastest = sorted.first else { return "no runs" }
      return "median \(format(sorted[sorted.count / 2])) ms, fastest \(format(fastest)) ms "
        + "of \(sorted.count)"
    }
    func median(_ times: [Double]) -> Double { times.isEmpty ? 0 : times.sorted()[times.count / 2] }
    print("  \(name): \(figures(times))")
    for (label, reference) in references {
      let ratio = median(reference) > 0 ? median(times) / median(reference) : 0
      print("    beside \(label): \(figures(reference)) (x\(format(ratio)))")
    }
  }

  /// "name: x ms / beside reference: y ms (xN)".
  static func report(_ name: String, _ ms: Double, reference: (String, Double)) {
    let ratio = reference.1 > 0 ? ms / reference.1 : 0
    print(
      "  \(name): \(format(ms)) ms\n    beside \(reference.0): \(format(reference.1)) ms"
        + " (x\(format(ratio)))")
  }

  /// Throughput of `bytes` processed in `ms`, in MB/s.
  static func throughput(_ bytes: Int, _ ms: Double) -> Double {
    ms > 0 ? Double(bytes) / 1e6 / (ms / 1000) : 0
  }

  static func format(_ value: Double) -> String { String(format: "%.2f", value) }

  /// A binary next to this one (the release `clarissa`).
  static func siblingBinary(_ name: String) -> String? {
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let path = me.deletingLastPathComponent().appendingPathComponent(name).path
    return FileManager.default.isExecutableFile(atPath: path) ? path : nil
  }

  /// This benchmark again in a fresh process (its peak memory is its own), with `arguments`;
  /// what it prints goes to this one's output.
  static func again(_ arguments: [String]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    process.arguments = arguments
    do {
      try process.run()
      process.waitUntilExit()
    } catch {
      print("  cannot start a fresh process: \(error)")
    }
  }

  /// A program on PATH.
  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Runs a program to its end with output discarded, by `posix_spawn` (Foundation's `Process`
  /// adds ~25 ms of its own, which is not the program's start-up); its exit status.
  @discardableResult
  static func spawn(_ path: String, _ arguments: [String]) -> Int32 {
    spawnMeasured(path, arguments)?.status ?? -1
  }

  /// A finished child process: its exit status and wall time.
  struct Child {
    var status: Int32
    var milliseconds: Double
  }

  /// Runs a program to its end as ``spawn(_:_:)`` does, timing it; nil when it cannot start.
  static func spawnMeasured(_ path: String, _ arguments: [String]) -> Child? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    return Child(status: (status >> 8) & 0xFF, milliseconds: elapsed)
  }

  /// A program's peak resident memory in KB, run to its end under GNU time (`/usr/bin/time -f
  /// %M`); nil without it. Not from this process's `wait4`: a child spawned from a large process
  /// starts with that process's memory counted in its peak (Linux keeps the high-water mark
  /// across `exec`), GNU time's own small process does not.
  static func peakKB(_ path: String, _ arguments: [String]) -> Int? {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-bench-peak-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    guard spawn(time, ["-f", "%M", "-o", output, path] + arguments) >= 0,
      let text = try? String(contentsOfFile: output, encoding: .utf8)
    else { return nil }
    return text.split(separator: "\n").last.flatMap { Int($0) }
  }
}
