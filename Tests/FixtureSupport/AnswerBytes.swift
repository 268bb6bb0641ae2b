import ClarissaCore
import ClarissaEngine
import Curl
import Dispatch
import Foundation
import ListingStore
import ListingText
import Presentation
import Sites
import Synchronization

/// The fuzzed answer: its bytes read as a server's answer, and the path clarissa takes with it.
/// `FuzzRegressionTests` replays crashing inputs through the same steps.
public enum AnswerBytes {
  /// The first two bytes choose the status (100-599); then header lines (`Name: value`) up to
  /// an empty line; the rest is the body.
  public static func response(_ bytes: [UInt8]) -> HTTPResponse {
    guard bytes.count >= 2 else { return HTTPResponse(status: 200, body: bytes, finalURL: url) }
    let status = 100 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 500
    var rest = bytes.dropFirst(2)
    var headers: [String: String] = [:]
    while let newline = rest.firstIndex(of: 0x0A) {
      let line = String(decoding: rest[rest.startIndex..<newline], as: UTF8.self)
      rest = rest[(newline + 1)...]
      guard let colon = line.firstIndex(of: ":") else { break }
      headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...])
        .trimmingCharacters(in: .whitespaces)
    }
    return HTTPResponse(status: status, headers: headers, body: Array(rest), finalURL: url)
  }

  /// The scheduler with this answer for every request, then what a run does with the outcome.
  public static func handle(_ response: HTTPResponse) {
    var settings = SchedulerSettings(
      maxAttempts: 3, baseBackoff: 0, maxRetryWait: 0, userAgent: "clarissa-fuzz")
    settings.delayOverride = 0
    let scheduler = RequestScheduler(fetcher: Answering(response: response), settings: settings)
    let site = GenericFeedSite()
    let request = RequestSpec(url: url, mode: "feed")
    let job = FetchJob(search: "fuzz", request: request, politeness: site.politeness)
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let done = Box()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
      let validators = ["http://127.0.0.1/feed": Validators(etag: "\"e\"")]
      done.value = await scheduler.run([job], validators: validators, cooldowns: [:], now: now)
      semaphore.signal()
    }
    semaphore.wait()
    guard let (outcomes, cooldowns) = done.value else { return }
    for cooldown in cooldowns.values {
      _ = cooldown.advice(
        host: "127.0.0.1", now: now, timeZone: TimeZone(identifier: "UTC") ?? .current)
      _ = cooldown.bounded(from: now)
    }
    for outcome in outcomes {
      guard case .answered(let answer) = outcome.status else { continue }
      let source = SourceResponse(
        request: request, status: answer.status, headers: answer.headers, body: answer.body,
        finalURL: answer.finalURL, receivedAt: now)
      guard let batch = try? site.listings(from: source) else { continue }
      let (listings, _) = ListingCheck.answer(batch.listings, limits: Limits())
      for listing in ListingDescription.resolve(listings) {
        _ = ListingCheck.shown(listing)
        _ = listing.price.map { CheckedNumber.text($0) }
      }
    }
  }

  static let url = "http://127.0.0.1/feed"

  /// A fetcher whose every request gets the one answer.
  struct Answering: Fetcher {
    let response: HTTPResponse
    func fetch(_ request: RequestSpec, headers: [String: String]) async -> Result<
      HTTPResponse, FetchError
    > {
      .success(response)
    }
  }

  final class Box: Sendable {
    private let held = Mutex<(outcomes: [FetchOutcome], cooldowns: [String: Cooldown])?>(nil)

    /// The run's outcomes and cool-downs, once it ended.
    var value: (outcomes: [FetchOutcome], cooldowns: [String: Cooldown])? {
      get { held.withLock { $0 } }
      set { held.withLock { $0 = newValue } }
    }
  }
}
