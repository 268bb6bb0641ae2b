internal import ClarissaCore
internal import Curl
internal import Foundation
internal import ListingStore

/// Runs a local program with input on stdin, within a time limit; a non-zero exit is a refusal.
enum Program {
  static func run(
    _ path: String, _ arguments: [String], input: [UInt8], environment: [String: String],
    timeout: Double, channel: String, secrets: [String] = []
  ) async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    let stdin = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    do { try process.run() } catch {
      throw DeliveryError(
        "channel '\(channel)': cannot run '\(path)': \(error.localizedDescription)")
    }
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    // stderr is read while stdin is written: a program that says a lot before reading its input
    // would otherwise wait on us while we wait on it.
    let errorReader = Task.detached { stderr.fileHandleForReading.readDataToEndOfFile() }
    let writer = stdin.fileHandleForWriting
    await Task.detached {
      Self.feed(input, to: writer.fileDescriptor)
      try? writer.close()
    }.value
    let errorText = await errorReader.value
    await Task.detached { process.waitUntilExit() }.value
    killer.cancel()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      // A program may print the URL it was given (apprise does): its secrets are masked
      // before the excerpt is cut, so no part of one survives at the cut.
      let said = secrets.reduce(String(decoding: errorText.suffix(4096), as: UTF8.self)) {
        $0.replacingOccurrences(of: $1, with: ChannelRedactor.mask)
      }
      let detail = Excerpt.oneLine(said.utf8, limit: 300, keepingEnd: true)
      let how =
        process.terminationReason == .uncaughtSignal
        ? "was stopped after \(Int(timeout)) s" : "exited with status \(process.terminationStatus)"
      throw DeliveryError(
        "channel '\(channel)': '\((path as NSString).lastPathComponent)' \(how)"
          + (detail.isEmpty ? "" : ": \(detail)"))
    }
  }

  /// Writes `bytes` to a pipe whose reader may have gone (a program that exits without reading
  /// its input is fine; its exit status decides). The SIGPIPE such a write draws would end
  /// clarissa before it saves its state, so it is blocked on this thread for the write and
  /// taken off the thread afterwards; the rest of the process keeps its own disposition.
  static func feed(_ bytes: [UInt8], to descriptor: Int32) {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let broken = FileWriting.writeAll(bytes, to: descriptor) == EPIPE
    if broken {
      var pending = sigset_t()
      sigpending(&pending)
      if sigismember(&pending, SIGPIPE) == 1 {
        var now = timespec()
        _ = sigtimedwait(&pipeSignal, nil, &now)
      }
    }
  }

  /// The program's path: as written when it has a slash, else found on PATH.
  static func locate(_ name: String, environment: [String: String]) -> String? {
    if name.contains("/") { return name }
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
