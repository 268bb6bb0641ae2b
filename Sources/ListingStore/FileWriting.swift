internal import Foundation

/// The one place clarissa writes bytes to a descriptor: whole runs, retried after signals, and
/// files replaced atomically (the state, the Atom feeds, the HTML page). In the store's module,
/// the lowest that writes: the engine's outputs and a channel's program (`Program`) use it.
package enum FileWriting {
  /// Writes all of `bytes` to `descriptor`; nil when written, else the failure's errno.
  package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    bytes.withUnsafeBytes { raw -> Int32? in
      guard let base = raw.baseAddress else { return nil }
      var offset = 0
      while offset < raw.count {
        let written = write(descriptor, base + offset, raw.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return written < 0 ? errno : ENOSPC
        }
      }
      return nil
    }
  }

  /// Why `replace` failed, at which step, on which file; the target is untouched.
  package struct ReplaceError: Error {
    enum Step { case create, write, rename }
    let step: Step
    /// The file that failed: the temporary one for `create` and `write`, the target for `rename`.
    package let path: String
    /// The system's reason (`strerror`), or the producer's error.
    package let reason: String
  }

  /// Replaces `path` atomically: `produce` hands its text, in pieces, to a temporary file beside
  /// it, which is flushed to disk and renamed over `path`, and the folder entry is synced. On
  /// any failure the temporary file is removed and `path` keeps its old content. The new file
  /// gets `mode` when one is given (whatever the umask), so that a file replaced keeps its
  /// permissions; else 0644 less the umask.
  package static func replace(
    _ path: String, mode: UInt16? = nil,
    produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
  ) throws(ReplaceError) {
    let temporary = path + ".tmp-\(getpid())"
    let descriptor = open(
      temporary, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, mode == nil ? 0o644 : 0o600)
    guard descriptor >= 0 else {
      throw ReplaceError(step: .create, path: temporary, reason: Self.reason(errno))
    }
    if let mode, fchmod(descriptor, mode_t(mode)) != 0 {
      let reason = Self.reason(errno)
      close(descriptor)
      unlink(temporary)
      throw ReplaceError(step: .create, path: temporary, reason: reason)
    }
    var failure: String?
    do {
      try produce { piece in
        if let number = writeAll(piece, to: descriptor) { throw WriteFailure(errno: number) }
      }
      if fsync(descriptor) != 0 { failure = Self.reason(errno) }
    } catch let error as WriteFailure {
      failure = Self.reason(error.errno)
    } catch {
      failure = "\(error)"
    }
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw ReplaceError(step: .write, path: temporary, reason: failure)
    }
    guard rename(temporary, path) == 0 else {
      let reason = Self.reason(errno)
      unlink(temporary)
      throw ReplaceError(step: .rename, path: path, reason: reason)
    }
    syncFolder(of: path)
  }

  private struct WriteFailure: Error {
    let errno: Int32
  }

  private static func reason(_ number: Int32) -> String { String(cString: strerror(number)) }

  /// The rename is durable only once the folder's entry is on disk too.
  private static func syncFolder(of path: String) {
    let folder = (path as NSString).deletingLastPathComponent
    let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }
}
