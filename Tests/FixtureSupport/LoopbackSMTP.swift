import Foundation

/// A loopback SMTP server (Python's aiosmtpd, `Fixtures/smtp/loopback_smtp.py`) for the mail
/// tests: mail it accepts lands in a spool folder as `N.eml` with its envelope in `N.json`.
public final class LoopbackSMTP: Sendable {
  /// How the server behaves.
  public enum Mode: String, Sendable {
    /// Accepts mail, offers no STARTTLS.
    case plain
    /// Requires STARTTLS, with the test-only identity of `Fixtures/tls/`.
    case starttls
    /// TLS from the first byte (`smtps://`), with the same identity.
    case tls
    /// Accepts connections and never answers.
    case silent
  }

  /// The Python with aiosmtpd: the `.build/venv` one `.ci/run` fills, or one on PATH.
  public static var python: String? { TestTools.python(importing: "aiosmtpd") }

  /// True when the tests can run (or must, under CI, where a missing aiosmtpd fails them).
  public static var available: Bool { python != nil || TestTools.underCI }

  /// The port it listens on, on 127.0.0.1.
  public let port: Int
  /// Where accepted mail lands.
  public var spool: URL { script.spool }
  private let script: LoopbackScript

  /// Starts the server and waits until it listens.
  public init(_ mode: Mode) throws {
    guard let python = Self.python else { throw Failure("no python3 with aiosmtpd") }
    let tls = Fixtures.root.appendingPathComponent("tls")
    script = try LoopbackScript(
      python: python, script: "smtp/loopback_smtp.py", prefix: "smtp", name: "the SMTP server"
    ) {
      [
        mode.rawValue, $0.path, tls.appendingPathComponent("localhost.crt").path,
        tls.appendingPathComponent("localhost.key").path,
      ]
    }
    guard let port = Int(String(decoding: script.ready, as: UTF8.self)) else {
      throw Failure("the SMTP server printed no port")
    }
    self.port = port
  }

  /// Ends the server (closing its stdin ends it; it is the test's own process).
  public func stop() { script.stop() }

  /// While refusing, every mail is answered with 550.
  public func refuse(_ refusing: Bool) {
    let flag = spool.appendingPathComponent("refuse").path
    if refusing {
      _ = FileManager.default.createFile(atPath: flag, contents: Data())
    } else {
      try? FileManager.default.removeItem(atPath: flag)
    }
  }

  /// The accepted mails' files, in arrival order.
  public var mails: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? []
    return names.filter { $0.hasSuffix(".eml") }.sorted {
      Int($0.dropLast(4)) ?? 0 < Int($1.dropLast(4)) ?? 0
    }.map { spool.appendingPathComponent($0) }
  }

  /// The envelope of mail number `index`: `from`, `to`, `tls`.
  public func envelope(_ index: Int) throws -> [String: Any] {
    let data = try Data(contentsOf: spool.appendingPathComponent("\(index).json"))
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }

  /// Mail number `index` parsed by Python's `email` package (policy.default decodes RFC 2047):
  /// its headers, the MIME type of each leaf part and each part's decoded text.
  public func parsed(_ index: Int) throws -> [String: Any] {
    guard let python = Self.python else { throw Failure("no python3") }
    let script = """
      import email, email.policy, json, sys
      m = email.message_from_binary_file(open(sys.argv[1], 'rb'), policy=email.policy.default)
      parts = [p for p in m.walk() if not p.is_multipart()]
      print(json.dumps({'subject': str(m['subject']), 'from': str(m['from']),
        'to': str(m['to']), 'date': str(m['date']), 'message_id': str(m['message-id']),
        'type': m.get_content_type(), 'parts': [p.get_content_type() for p in parts],
        'texts': [p.get_content() for p in parts], 'defects': len(m.defects)}))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", script, spool.appendingPathComponent("\(index).eml").path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }

  /// Why the server could not be used.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
  }
}
