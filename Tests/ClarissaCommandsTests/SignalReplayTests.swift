import FixtureSupport
import Foundation
import Testing

/// Given the replay with a planted scam (Fixtures/replay/signals: the recorded Kleinanzeigen
/// answer, then the same with one card copied at 390 € with scam phrases and the copied card's
/// photo), when a user runs,
/// explains and shows it with the built binary, then the planted listing is flagged with its
/// signs in the text and JSON reports, `show` and `explain`, filtered where the search drops
/// them, and the recorded listings carry no sign.
@Suite(.serialized) struct SignalReplayTests {
  static let config = "Fixtures/replay/signals/searches.yaml"
  static let photo = "photo also on a listing in 40227 Eller at €940"
  static let low = "57% below the median per m² of 13 similar"
  static let words = "scam words: \"kaution vorab\", \"schlüssel per post\", \"ich bin im ausland\""

  /// `hours` from now, as `--now` takes it: `explain` judges at the present time, and the
  /// market is the search's last 90 days.
  static func at(hours: Double) -> String {
    ISO8601DateFormatter().string(from: Date().addingTimeInterval(hours * 3600))
  }

  /// Both runs into a fresh store: the recorded answer (primes), then the planted one.
  static func played() throws -> (state: String, second: TestTools.Outcome) {
    let state = RunCommandTests.temporaryState()
    let first = try CommandLineTests.run([
      "run", "--config", config, "--replay", "Fixtures/replay/signals/0", "--state", state,
      "--now", at(hours: -3),
    ])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(!first.stdout.contains("⚠"), "the first run primes: \(first.stdout)")
    let second = try CommandLineTests.run([
      "run", "--config", config, "--replay", "Fixtures/replay/signals/1", "--state", state,
      "--now", at(hours: -1), "--format", "json",
    ])
    #expect(second.status == 0, "\(second.stderr)")
    return (state, second)
  }

  @Test func thePlantedScamIsFlaggedInTheReportAndShow() throws {
    let (state, second) = try Self.played()
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
    let searches = try #require(report["searches"] as? [[String: Any]])
    let flats = try #require(searches.first { $0["name"] as? String == "flats" })
    let new = try #require(flats["new"] as? [[String: Any]])
    #expect(new.map { $0["id"] as? String } == ["3470000001"], "only the planted card is new")
    let signals = try #require(new.first?["signals"] as? [[String: String]])
    #expect(
      signals == [
        ["kind": "photo-elsewhere", "text": Self.photo], ["kind": "low-price", "text": Self.low],
        ["kind": "scam-words", "text": Self.words],
      ])
    let strict = try #require(searches.first { $0["name"] as? String == "flats-strict" })
    #expect((strict["new"] as? [Any])?.isEmpty == true, "dropped where the search asks")

    let show = try CommandLineTests.run([
      "show", "kleinanzeigen:3470000001", "--config", Self.config, "--state", state,
    ])
    #expect(show.status == 0, "\(show.stderr)")
    #expect(
      show.stdout.contains("\n  ⚠ \(Self.photo)\n  ⚠ \(Self.low)\n  ⚠ \(Self.words)\n"),
      "\(show.stdout)")
    let json = try CommandLineTests.run([
      "show", "kleinanzeigen:3470000001", "--config", Self.config, "--state", state, "--format",
      "json",
    ])
    #expect(json.stdout.contains("\"kind\" : \"low-price\""), "\(json.stdout)")
    // A recorded listing carries none.
    let honest = try CommandLineTests.run([
      "show", "kleinanzeigen:3465876892", "--config", Self.config, "--state", state,
    ])
    #expect(honest.status == 0 && !honest.stdout.contains("⚠"), "\(honest.stdout)")
  }

  @Test func explainSaysWhy() throws {
    let state = RunCommandTests.temporaryState()
    let first = try CommandLineTests.run([
      "run", "--config", Self.config, "--replay", "Fixtures/replay/signals/0", "--state", state,
      "--now", Self.at(hours: -3),
    ])
    #expect(first.status == 0, "\(first.stderr)")
    for (search, verdict) in [
      ("flats", "; new"), ("flats-strict", "signals.drop: low-price (\(Self.low)); ignored"),
    ] {
      let explain = try CommandLineTests.run([
        "explain", "--config", Self.config, "--replay", "Fixtures/replay/signals/1", "--state",
        state, "--search", search,
      ])
      #expect(explain.status == 0, "\(explain.stderr)")
      let lines = explain.stdout.components(separatedBy: "\n")
      let at = try #require(lines.firstIndex { $0.contains("Helle 2,5 Zimmer Wohnung") })
      #expect(lines[at + 1].hasSuffix(verdict), "\(lines[at + 1])")
      #expect(lines[at + 2] == "    ⚠ photo-elsewhere: \(Self.photo)")
      #expect(lines[at + 3] == "    ⚠ low-price: \(Self.low)")
      #expect(lines[at + 4] == "    ⚠ scam-words: \(Self.words)")
      #expect(explain.stdout.components(separatedBy: "⚠").count == 4, "no other listing")
    }
  }
}
