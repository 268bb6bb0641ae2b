import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A real PostgreSQL server for the tests: Debian's `postgresql` binaries, a cluster made by
/// `initdb` in a temporary folder, listening on 127.0.0.1 only (and a socket in that folder),
/// `trust` authentication for the user `clarissa`. One per test process, started on first use
/// and stopped (by its process id) when the process ends; each test asks for a database of its
/// own. When the tests run as root (CI), the server runs as the `postgres` user, since
/// PostgreSQL refuses root.
public final class LoopbackPostgres: Sendable {
  /// Why there is no server (no binaries, initdb failed, ...).
  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String
  }

  /// The server of this test process.
  public static func shared() throws -> LoopbackPostgres {
    try server.withLock { server in
      if let server { return server }
      let started = try LoopbackPostgres()
      server = started
      atexit { LoopbackPostgres.stopShared() }
      return started
    }
  }

  private static let server = Mutex<LoopbackPostgres?>(nil)

  private static func stopShared() { server.withLock { $0 }?.stop() }

  /// The port it listens on (127.0.0.1).
  public let port: UInt16
  /// The cluster's folder.
  public let folder: URL
  private let process: Process
  /// The folder of the server's programs (`psql` among them).
  private let bin: String

  /// `postgres://clarissa@127.0.0.1:PORT/NAME`.
  public func url(_ database: String) -> String {
    "postgres://clarissa@127.0.0.1:\(port)/\(database)"
  }

  private init() throws {
    guard let bin = Self.binaries() else {
      throw Unavailable(
        description: "no PostgreSQL server binaries (Debian: apt-get install postgresql; "
          + ".ci/run installs it)")
    }
    self.bin = bin
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
    let data = folder.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let asUser: [String] =
      getuid() == 0
      ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] : []
    if getuid() == 0 {
      _ = Self.run(["/bin/chown", "-R", "postgres:postgres", folder.path])
      _ = Self.run(["/bin/chmod", "755", folder.path])
    }
    let initdb = Self.run(
      asUser + [
        "\(bin)/initdb", "-D", data.path, "-U", "clarissa", "--auth=trust", "-E", "UTF8",
        "--locale=C.UTF-8", "--no-sync",
      ])
    guard initdb.status == 0 else {
      throw Unavailable(description: "initdb failed: \(initdb.output)")
    }
    port = Self.freePort()
    process = Process()
    process.executableURL = URL(fileURLWithPath: asUser.first ?? "\(bin)/postgres")
    process.arguments =
      Array(asUser.dropFirst()) + (asUser.isEmpty ? [] : ["\(bin)/postgres"]) + [
        "-D", data.path, "-h", "127.0.0.1", "-p", String(port), "-k", folder.path,
        "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
        "-c", "max_connections=200", "-c", "log_min_messages=fatal",
      ]
    let log = folder.appendingPathComponent("server.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      if Self.run(["\(bin)/pg_isready", "-h", "127.0.0.1", "-p", String(port), "-q"]).status == 0 {
        return
      }
      guard process.isRunning else { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    stop()
    throw Unavailable(description: "the PostgreSQL server did not start: \(said)")
  }

  /// A new, empty database; its URL.
  public func database(_ prefix: String = "t") throws -> String {
    let name =
      "\(prefix)_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
    let created = Self.run([
      bin + "/psql", "-h", "127.0.0.1", "-p", String(port), "-U", "clarissa", "-d",
      "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-c", "CREATE DATABASE \(name)",
    ])
    guard created.status == 0 else { throw Unavailable(description: created.output) }
    return url(name)
  }

  /// One query's result as psql prints it unaligned (`-At`), or nil when it failed.
  public func query(_ url: String, _ sql: String) -> String? {
    let result = Self.run([bin + "/psql", "-At", "-d", url, "-c", sql])
    return result.status == 0 ? result.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
  }

  /// Stops the server (SIGINT: a fast shutdown) and removes its folder.
  public func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGINT)
      let deadline = Date().addingTimeInterval(10)
      while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    try? FileManager.default.removeItem(at: folder)
  }

  /// Debian's server binaries, the newest version installed.
  static func binaries() -> String? {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
      .first { FileManager.default.isExecutableFile(atPath: "\($0)/postgres") }
  }

  private static func freePort() -> UInt16 {
    let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(probe) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        _ = bind(probe, $0, length)
        return getsockname(probe, $0, &length)
      }
    }
    return UInt16(bigEndian: address.sin_port)
  }

  @discardableResult
  static func run(_ arguments: [String]) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do { try process.run() } catch { return (-1, "\(error)") }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
