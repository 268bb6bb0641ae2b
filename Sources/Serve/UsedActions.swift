internal import ClarissaCore
internal import Foundation
internal import Synchronization

/// The `/act` tokens already used, until they expire: a button does its action once. Without
/// it a Star pressed again a day after the person unstarred the listing would star it again
/// (a mark's undoing leaves no trace in the store to compare with). Tokens are kept by their
/// text, at most ``capacity`` of them (only tokens signed with the server's key come in, one
/// a button pressed); when full, the expired go first, then the soonest to expire.
///
/// With a file (`clarissa-actions.used` beside the key) the record outlives the process: each
/// use is a line appended, `EXPIRY USED TOKEN` (seconds since 1970), a use given back a line
/// `- TOKEN`; the file is read, and rewritten without the expired, when the server starts.
final class UsedActions: Sendable {
  /// Tokens remembered at most.
  let capacity: Int
  private let file: String?
  private let state: Mutex<State>
  /// The longest file read (10,000 tokens of the longest kind take 6 MB).
  static let fileLimit = 8 * 1024 * 1024

  /// The tokens used, and whether a problem with the file was said.
  private struct State {
    /// Token text: when it expires, when it was used.
    var used: [String: (expires: Date, at: Date)] = [:]
    var saidProblem = false
  }
  /// A record kept in `file` (nil: in memory only), read at `now`.
  init(file: String? = nil, capacity: Int = 10_000, now: Date = Date()) {
    self.capacity = capacity
    self.file = file
    var state = State()
    if let file { Self.load(file, now: now, capacity: capacity, into: &state) }
    self.state = Mutex(state)
  }

  /// When `token` was used; nil: not yet.
  func usedAt(_ token: String) -> Date? { state.withLock { $0.used[token]?.at } }

  /// Records `token` as used at `now`; false when it was already (nothing is to be done).
  func use(_ token: String, expires: Date, now: Date) -> Bool {
    let fresh = state.withLock { state in
      guard state.used[token] == nil else { return false }
      if state.used.count >= capacity {
        state.used = state.used.filter { $0.value.expires > now }
        if state.used.count >= capacity,
          let soonest = state.used.min(by: { $0.value.expires < $1.value.expires })?.key
        {
          state.used[soonest] = nil
        }
      }
      state.used[token] = (expires, now)
      return true
    }
    if fresh {
      append(
        "\(Int(expires.timeIntervalSince1970)) \(Int(now.timeIntervalSince1970)) \(token)\n")
    }
    return fresh
  }

  /// Forgets `token`'s use (its action failed: it may be tried again).
  func forget(_ token: String) {
    state.withLock { $0.used[token] = nil }
    append("- \(token)\n")
  }

  /// Tokens remembered now.
  var count: Int { state.withLock { $0.used.count } }

  // MARK: - The file

  private static func load(_ file: String, now: Date, capacity: Int, into state: inout State) {
    guard let handle = FileHandle(forReadingAtPath: file) else { return }
    let data = (try? handle.read(upToCount: Self.fileLimit)) ?? nil
    try? handle.close()
    var used = state.used
    for line in String(decoding: data ?? Data(), as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2, parts[0] == "-" {
        used[String(parts[1])] = nil
        continue
      }
      // Numbers as written by this class; anything else (a cut line) is left out.
      guard parts.count == 3, let expires = Double(parts[0]), let at = Double(parts[1]),
        (0..<1e11).contains(expires), (0..<1e11).contains(at), Self.isToken(parts[2])
      else { continue }
      let end = Date(timeIntervalSince1970: expires)
      if end > now { used[String(parts[2])] = (end, Date(timeIntervalSince1970: at)) }
    }
    while used.count > capacity,
      let soonest = used.min(by: { $0.value.expires < $1.value.expires })?.key
    {
      used[soonest] = nil
    }
    state.used = used
    // Rewritten without the expired and the given back.
    let text = used.map { token, use in
      "\(Int(use.expires.timeIntervalSince1970)) \(Int(use.at.timeIntervalSince1970)) \(token)\n"
    }.joined()
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
      // As private as the key beside it: whoever reads it learns which buttons were pressed.
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
    } catch {
      problem(file, "cannot be rewritten", said: &state.saidProblem)
    }
  }

  /// URL-safe base64, as a token is written.
  private static func isToken(_ text: Substring) -> Bool {
    !text.isEmpty && text.utf8.count <= 1024
      && text.utf8.allSatisfy {
        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
          || $0 == 0x2D || $0 == 0x5F
      }
  }

  private func append(_ line: String) {
    guard let file else { return }
    state.withLock { state in
      let descriptor = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        return Self.problem(file, "cannot be written", said: &state.saidProblem)
      }
      defer { close(descriptor) }
      let bytes = Array(line.utf8)
      if bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) != bytes.count {
        Self.problem(file, "cannot be written", said: &state.saidProblem)
      }
    }
  }

  /// Says once (`said` records it) that the file fails: the record then lasts only as long as
  /// the process.
  private static func problem(_ file: String, _ what: String, said: inout Bool) {
    guard !said else { return }
    said = true
    FileHandle.standardError.write(
      Data(
        ("clarissa: '\(file)' (the buttons already used) \(what): "
          + "\(String(cString: strerror(errno))); a button used before a restart could act again "
          + "after it\n").utf8))
  }
}
