internal import ArgumentParser
internal import Foundation

/// `clarissa init`: write a commented starter `searches.yaml`, never over an existing file
/// unless asked.
struct Init: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a commented starter searches.yaml.",
    discussion: """
      Writes a small config that passes 'clarissa validate' as it is and teaches by example: \
      one search, a city, a price range, a filter, and a notification channel to uncomment. \
      An existing file is left alone unless --force; with --force it is replaced atomically. \
      The text is the same as examples/starter.yaml.

      Exit status: 0 written; 1 the file exists (without --force) or could not be written.

      Examples:
        clarissa init
        clarissa init --config ~/ads/searches.yaml
        clarissa init --force && clarissa validate
      """
  )

  @Option(
    name: [.short, .long], help: ArgumentHelp("The file to write.", valueName: "file"))
  var config = "searches.yaml"

  @Flag(help: "Replace the file if it exists.")
  var force = false

  func run() throws {
    let url = URL(fileURLWithPath: config)
    let exists = FileManager.default.fileExists(atPath: config)
    if exists && !force { throw refusal() }
    do {
      // Without --force the write itself refuses an existing file (O_EXCL), so a file
      // created after the check above is not lost either.
      try Data(StarterConfig.text.utf8).write(
        to: url, options: force ? .atomic : .withoutOverwriting)
    } catch CocoaError.fileWriteFileExists {
      throw refusal()
    } catch {
      Terminal.error("error: cannot write '\(config)': \(Self.reason(error))\n")
      throw ExitStatus.failure.exitCode
    }
    Terminal.output(
      "\(exists ? "replaced" : "wrote") \(config): a starter with one search, 'desks'\n"
        + "next: edit it, then 'clarissa validate\(configOption)' and "
        + "'clarissa run\(configOption) --dry-run'\n")
  }

  private var configOption: String { config == "searches.yaml" ? "" : " --config \(config)" }

  private func refusal() -> ExitCode {
    Terminal.error(
      "error: '\(config)' already exists; 'clarissa init\(configOption) --force' replaces it\n")
    return ExitStatus.failure.exitCode
  }

  /// The system's reason (`strerror`) when Foundation has one, rather than its long sentence.
  private static func reason(_ error: Error) -> String {
    // On Linux the underlying error is a Swift `POSIXError`: cast to `Error`, then bridge.
    if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error {
      let posix = underlying as NSError
      if posix.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(posix.code))).lowercased()
      }
    }
    return error.localizedDescription
  }
}
