package import ArgumentParser

/// The exit statuses clarissa documents (README, "Exit codes"); scripts and CI rely on them.
package enum ExitStatus: Int32, CaseIterable, Sendable {
  /// Everything worked (and, with `--exit-code`, nothing new was found).
  case success = 0
  /// An unexpected failure: a file could not be written, an internal error; also `sites` with a
  /// filter word that matches nothing (as `grep` does).
  case failure = 1
  /// The config has errors; nothing was fetched.
  case configInvalid = 2
  /// Some sources failed (network, block, bad response); the others were processed.
  case sourcesFailed = 3
  /// Some notifications could not be delivered; they are retried on the next run.
  case notificationFailed = 4
  /// The state file is locked by another run, corrupt, or from a newer clarissa.
  case stateUnusable = 5
  /// New listings were found (only with `--exit-code`, like `git diff --exit-code`).
  case newListings = 10
  /// The command line was wrong (ArgumentParser's usage error).
  case usage = 64

  /// The status as ArgumentParser's exit code.
  package var exitCode: ExitCode { ExitCode(rawValue) }
}
