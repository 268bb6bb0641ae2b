internal import Foundation

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// When the environment's `CLARISSA_DELIVERY_TRACE` names a file, the moments of a delivery's
/// way back are appended to it, one line each: `<event> <CLOCK_MONOTONIC ns> <detail>`. Each
/// line is one write(2) to a file opened for appending, so a SIGKILL loses none already noted.
/// `.ci/crashes` sets it to measure the window from a receiver's answer to the run's commit of
/// it on the same clock as its own (Python's `time.monotonic`). Unset, nothing is written.
package enum DeliveryTrace {
  private static let file = openForAppending(
    ProcessInfo.processInfo.environment["CLARISSA_DELIVERY_TRACE"])

  package static var isOn: Bool { file >= 0 }

  /// Notes `event` now; `detail` is only built when the trace is on.
  package static func note(_ event: String, _ detail: @autoclosure () -> String) {
    guard file >= 0 else { return }
    append(event, detail(), to: file)
  }

  /// The file at `path` opened for appending (made when missing); -1 when `path` is nil or
  /// empty, or cannot be opened.
  package static func openForAppending(_ path: String?) -> Int32 {
    guard let path, !path.isEmpty else { return -1 }
    return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
  }

  /// Appends `event` now to `file`, one line in one write(2).
  package static func append(_ event: String, _ detail: String, to file: Int32) {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    var line = "\(event) \(Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)) \(detail)\n"
    line.withUTF8 { bytes in _ = write(file, bytes.baseAddress, bytes.count) }
  }
}
