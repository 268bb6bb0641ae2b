internal import Foundation
internal import Synchronization
internal import WebServer

extension PollBenchmark {
  /// Each program's fastest and median beside xmllint's and rss2email's, with peak memory.
  static func report(_ measured: [String: [Bench.Child]], peaks: [String: Int]) {
    func figures(_ name: String) -> (best: Double, median: Double, peakMB: String)? {
      guard let children = measured[name], !children.isEmpty else { return nil }
      let times = children.map(\.milliseconds).sorted()
      return (times[0], times[times.count / 2], peaks[name].map { "\($0 / 1024) MB" } ?? "-")
    }
    for (name, children) in measured where children.contains(where: { $0.status != 0 }) {
      print("  WARNING: \(name) exited with status \(children.map(\.status))")
    }
    guard let xmllint = figures("xmllint") else { return }
    print(
      "  \(rounds) interleaved rounds, fastest and median; peak resident memory from one more"
        + " round under GNU time:")
    print(
      "    xmllint --stream --noout, the same bytes: \(Bench.format(xmllint.best)) ms fastest,"
        + " \(Bench.format(xmllint.median)) ms median")
    func line(_ title: String, _ name: String, target: String = "") {
      guard let step = figures(name) else { return }
      let share = Int((xmllint.best / step.best * 100).rounded())
      let medians = Int((xmllint.median / step.median * 100).rounded())
      print(
        "    \(title): \(Bench.format(step.best)) ms fastest, \(Bench.format(step.median)) ms"
          + " median, \(step.peakMB) peak: \(share)% of xmllint (medians \(medians)%)\(target)")
    }
    line("clarissa run, one search, nothing new", "run", target: "; target >= 30%, < 60 MB")
    line("the same, the store also holding 1,000,000 other listings", "million")
    line("the same without recording (--dry-run: fetch, parse, look up)", "dry")
    line("clarissa --version (the process alone)", "version")
    guard let run = figures("run"), let rss2email = figures("rss2email") else {
      print("    rss2email 3.14: not measured (no venv: .ci/bench makes .build/r2e-venv)")
      return
    }
    print(
      "    rss2email 3.14, the same server, every entry seen (run --no-send): "
        + "\(Bench.format(rss2email.best)) ms fastest, \(Bench.format(rss2email.median)) ms"
        + " median of \(measured["rss2email"]?.count ?? 0), \(rss2email.peakMB) peak:"
        + " clarissa \(Int((rss2email.best / run.best).rounded()))x faster (medians"
        + " \(Int((rss2email.median / run.median).rounded()))x; target >= 50x)")
  }
}

/// The feed on 127.0.0.1: whatever body it was last told to serve, with no validators (no
/// `ETag`, no `Last-Modified`), so that every poll is a whole answer.
final class FeedServer: Sendable {
  private let state: Mutex<State>

  /// What is served, and by which server.
  private struct State {
    var body: [UInt8]
    var server: HTTPServer?
    var file = ""
    var url = ""
  }

  /// The file holding the bytes served now (for xmllint).
  var file: String { state.withLock { $0.file } }
  /// The feed's URL.
  var url: String { state.withLock { $0.url } }

  init?(body: [UInt8]) {
    state = Mutex(State(body: body))
    let server = try? HTTPServer(address: "127.0.0.1:0") { [unowned self] _ in
      WebResponse(
        status: 200, headers: [("Content-Type", "application/rss+xml")], body: self.current())
    }
    guard let server else { return nil }
    server.start()
    state.withLock {
      $0.server = server
      $0.url = "http://\(server.authority)/feed.xml"
    }
  }

  private func current() -> [UInt8] {
    state.withLock { $0.body }
  }

  /// Serves `body` from now on; `file` holds the same bytes.
  func serve(_ body: [UInt8], file: String) {
    state.withLock {
      $0.body = body
      $0.file = file
    }
  }

  func stop() {
    let server = state.withLock { state in
      defer { state.server = nil }
      return state.server
    }
    server?.stop()
  }
}

/// rss2email 3.14 from the virtual environment `.ci/bench` makes (`.build/r2e-venv`, or the
/// `r2e` named by `CLARISSA_BENCH_RSS2EMAIL`), configured to poll the benchmark's feed and send
/// nothing (`run --no-send`; its mail program is `/bin/true` all the same).
struct RSS2Email {
  let binary: String
  let config: String
  let data: String

  init?(folder: URL, url: String) {
    let named = ProcessInfo.processInfo.environment["CLARISSA_BENCH_RSS2EMAIL"]
    let path = named ?? FileManager.default.currentDirectoryPath + "/.build/r2e-venv/bin/r2e"
    guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
    binary = path
    config = folder.appendingPathComponent("r2e.cfg").path
    data = folder.appendingPathComponent("r2e.json").path
    let text = """
      [DEFAULT]
      to = bench@localhost
      from = bench@localhost
      email-protocol = sendmail
      sendmail = /bin/true
      [feed.poll20k]
      url = \(url)

      """
    guard FileManager.default.createFile(atPath: config, contents: Data(text.utf8)) else {
      return nil
    }
  }

  /// One poll of the feed.
  var command: [String] { [binary, "-c", config, "-d", data, "run", "--no-send"] }
}
