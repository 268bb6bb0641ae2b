internal import Foundation
internal import Synchronization

/// The lock that serialises writers of one store: `<store>.lock`, held with `flock` for a whole
/// run (or a `state` command that changes the store). Readers never take it: SQLite's WAL lets
/// them read while a run writes.
public final class RunLock: Sendable {
  /// Why the lock cannot be had.
  public struct Problem: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to do.
    public var message: String
    /// Another run held the lock for the whole wait (nothing is wrong with the store).
    public var busy = false
    public var description: String { message }
  }

  /// The store the lock guards.
  public let path: String
  /// The lock file's descriptor while held; -1 once released.
  private let descriptor = Mutex<Int32>(-1)

  /// Takes the lock of the store at `path`, waiting up to `wait` seconds for another run.
  public init(path: String, wait: Double = 5) throws {
    self.path = path
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty {
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    let file = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    guard file >= 0 else {
      throw Problem(
        message: "cannot open the lock file '\(path).lock': \(String(cString: strerror(errno)))")
    }
    let deadline = Date().addingTimeInterval(wait)
    while flock(file, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK, Date() < deadline else {
        close(file)
        throw Problem(
          message: "another clarissa run holds the lock on '\(path)'; waited \(Int(wait)) s. "
            + "Try again when it finishes", busy: true)
      }
      usleep(100_000)
    }
    descriptor.withLock { $0 = file }
  }

  deinit { release() }

  /// Releases the lock (again is harmless).
  public func release() {
    descriptor.withLock { descriptor in
      guard descriptor >= 0 else { return }
      flock(descriptor, LOCK_UN)
      close(descriptor)
      descriptor = -1
    }
  }
}
