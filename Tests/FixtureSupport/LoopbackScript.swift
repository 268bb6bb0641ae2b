import Foundation

/// A Python script a test starts on 127.0.0.1 (the loopback SMTP server, the loopback push
/// service): it gets a fresh spool folder among its arguments, prints one line when it is
/// ready (its port, or JSON), writes what it receives into the spool, and ends when its stdin
/// closes. The folder is removed when the script is done with.
final class LoopbackScript: Sendable {
  /// Where the script writes what it receives.
  let spool: URL
  /// The line the script printed when it was ready.
  let ready: [UInt8]
  private let process: Process
  private let input: Pipe

  /// Starts `script` (a path under `Fixtures/`) with `python`, its arguments made by `arguments`
  /// from the spool folder (named `prefix-UUID`), and waits for its first line; `name` words
  /// the failure ("the SMTP server").
  init(
    python: String, script: String, prefix: String, name: String,
    arguments: (URL) -> [String]
  ) throws {
    spool = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)-\(UUID().uuidString)")
    process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [Fixtures.root.appendingPathComponent(script).path] + arguments(spool)
    input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var line: [UInt8] = []
    while true {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      guard let first = byte.first else { throw LoopbackSMTP.Failure("\(name) did not start") }
      if first == UInt8(ascii: "\n") { break }
      line.append(first)
    }
    ready = line
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: spool)
  }

  /// Ends the script (closing its stdin ends it; it is the test's own process).
  func stop() {
    try? input.fileHandleForWriting.close()
    if process.isRunning { process.waitUntilExit() }
  }
}
