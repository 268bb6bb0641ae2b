internal import Foundation
internal import Synchronization

/// One caller at a time on a store's connection, and again by the caller that has it: a run
/// judges inside `record(search:deciding:)`, whose reads take their turn again on the same
/// thread. A `Mutex` is held for the whole turn; the thread holding it is noted beside it, so
/// that a nested call from that thread goes straight in rather than wait for itself.
final class ConnectionTurn: Sendable {
  /// Held for the whole of a turn.
  private let turn = Mutex(())
  /// The thread whose turn it is; nil between turns. Only that thread ever finds itself here.
  private let holder = Mutex<ObjectIdentifier?>(nil)

  /// Runs `body` in this thread's turn: at once when it has the turn already, else when the
  /// thread that has it is done.
  func run<T>(_ body: () throws -> T) throws -> T {
    let me = ObjectIdentifier(Thread.current)
    if holder.withLock({ $0 == me }) { return try body() }
    return try turn.withLock { _ in
      holder.withLock { $0 = me }
      defer { holder.withLock { $0 = nil } }
      return try body()
    }
  }
}
