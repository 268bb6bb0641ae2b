import ClarissaCore
import Foundation

/// Reads and writes the state file safely: an exclusive lock for the whole run, writes to a
/// temporary file that is flushed and renamed over the old one, and a corrupt or newer file
/// stops the run instead of being overwritten.
public final class StateStore {
  /// Why the state cannot be used.
  public struct Problem: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to do.
    public var message: String
    public var description: String { message }
  }

  /// The state file's path.
  public let path: String
  private var lockDescriptor: Int32 = -1

  /// A store for the file at `path` (not opened yet).
  public init(path: String) {
    self.path = path
  }

  deinit { unlock() }

  /// Takes the exclusive lock (`<path>.lock`), waiting up to `wait` seconds for another run.
  public func lock(wait: Double = 5) throws {
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty {
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    let descriptor = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw Problem(
        message: "cannot open the lock file '\(path).lock': \(String(cString: strerror(errno)))")
    }
    let deadline = Date().addingTimeInterval(wait)
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK, Date() < deadline else {
        close(descriptor)
        throw Problem(
          message: "another clarissa run holds the lock on '\(path)'; waited \(Int(wait)) s. "
            + "Try again when it finishes")
      }
      usleep(100_000)
    }
    lockDescriptor = descriptor
  }

  /// Releases the lock.
  public func unlock() {
    guard lockDescriptor >= 0 else { return }
    flock(lockDescriptor, LOCK_UN)
    close(lockDescriptor)
    lockDescriptor = -1
  }

  /// The state on disk; an empty state when there is no file yet.
  public func load() throws -> State {
    guard FileManager.default.fileExists(atPath: path) else { return State() }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Problem(message: "cannot read the state file '\(path)'")
    }
    do {
      return try StateCodec.decode(data)
    } catch let error as StateCodecError {
      if let newer = error.newerVersion {
        throw Problem(
          message: "the state file '\(path)' is version \(newer), newer than this clarissa "
            + "reads (\(State.currentVersion)); upgrade clarissa. The file was not changed")
      }
      throw corrupt(error.description)
    } catch {
      throw corrupt(Self.reason(error))
    }
  }

  private func corrupt(_ reason: String) -> Problem {
    Problem(
      message: "the state file '\(path)' is corrupt (\(reason)); it was not changed. "
        + "Move it aside to start afresh (every current listing will be primed, not notified)")
  }

  /// Writes `state` atomically (`FileWriting.replace`: a temporary file written in pieces as it
  /// is encoded, flushed to disk, renamed); any failure leaves the old state as it was.
  public func save(_ state: State) throws {
    do {
      try FileWriting.replace(path) { write in try StateCodec.encode(state, to: write) }
    } catch {
      switch error.step {
      case .create:
        throw Problem(
          message: "cannot write '\(error.path)': \(error.reason); the old state is intact")
      case .write:
        throw Problem(
          message: "cannot write the state file '\(path)': \(error.reason); the old state is intact"
        )
      case .rename:
        throw Problem(
          message:
            "cannot replace the state file '\(path)': \(error.reason); the old state is intact")
      }
    }
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()

  private static func reason(_ error: Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context): return context.debugDescription
    case DecodingError.keyNotFound(let key, _): return "missing '\(key.stringValue)'"
    case DecodingError.typeMismatch(_, let context): return context.debugDescription
    default: return "\(error)"
    }
  }
}
