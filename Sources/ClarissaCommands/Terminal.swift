internal import Foundation

/// Where output goes and whether it may be colored.
enum Terminal {
  /// Colors only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
  static func wantsColor(fileDescriptor: Int32) -> Bool {
    let environment = ProcessInfo.processInfo.environment
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    if environment["TERM"] == "dumb" { return false }
    return isatty(fileDescriptor) != 0
  }

  /// Writes to standard error.
  static func error(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// Writes to standard output.
  static func output(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
