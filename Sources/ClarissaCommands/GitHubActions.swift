internal import Foundation

/// GitHub Actions: warnings as workflow annotations, the Markdown report in the job summary.
enum GitHubActions {
  /// Whether this process runs as a GitHub Actions step.
  static var active: Bool { ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" }

  /// Each warning as a `::warning` workflow command (on standard error when standard output
  /// carries JSON).
  static func annotate(_ warnings: [String], json: Bool) {
    guard active else { return }
    for warning in warnings {
      // A workflow command ends at the line's end: its data escapes `%`, CR and LF.
      let escaped = warning.replacingOccurrences(of: "%", with: "%25")
        .replacingOccurrences(of: "\r", with: "%0D")
        .replacingOccurrences(of: "\n", with: "%0A")
      let line = "::warning title=clarissa::\(escaped)\n"
      if json { Terminal.error(line) } else { Terminal.output(line) }
    }
  }

  /// Appends the report to the job summary; the report is only built inside GitHub Actions.
  static func appendSummary(_ markdown: () -> String) {
    guard active, let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"],
      !path.isEmpty,
      let handle = FileHandle(forWritingAtPath: path)
    else { return }
    handle.seekToEndOfFile()
    handle.write(Data(markdown().utf8))
    handle.closeFile()
  }
}
