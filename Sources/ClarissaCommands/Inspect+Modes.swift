import ArgumentParser
import ClarissaCore
import Foundation

/// What `inspect` does with a file that gives no listing in the mode chosen: name (or, when the
/// mode was guessed, take) a mode that reads it; else exit 1 with what was found instead.
extension Inspect {
  /// The saved file as the answer of a request in `mode`.
  func response(_ adapter: any FeedSource, mode: String, _ body: [UInt8]) throws
    -> SourceResponse
  {
    let request = adapter.request(
      forSavedResponseIn: mode, city: city, parameters: try Self.values(parameters, adapter),
      url: url)
    return SourceResponse(
      request: request, body: body, finalURL: url, receivedAt: now.flatMap(Run.parseDate))
  }

  /// The first other mode of the site that reads listings from `body`.
  func otherMode(_ adapter: any FeedSource, besides chosen: String, _ body: [UInt8])
    -> (mode: String, batch: ListingBatch)?
  {
    for other in adapter.modes where other != chosen {
      guard let answer = try? response(adapter, mode: other, body),
        let batch = try? adapter.listings(from: answer), !batch.listings.isEmpty
      else { continue }
      return (other, batch)
    }
    return nil
  }

  /// Exit 1 when nothing was read: no listing and no next request (the notes, printed before,
  /// say why).
  static func checkSomethingRead(_ batch: ListingBatch, mode: String) throws {
    guard batch.listings.isEmpty else { return }
    if !batch.followUps.isEmpty {
      Terminal.error("note: mode '\(mode)' reads no listing\(followUpNote(batch))\n")
      return
    }
    Terminal.error("error: no listing read (mode '\(mode)')\n")
    throw ExitStatus.failure.exitCode
  }

  /// What a step that only collects gave: the requests it leads to.
  static func followUpNote(_ batch: ListingBatch) -> String {
    guard let first = batch.followUps.first else { return "" }
    let count = batch.followUps.count
    return ": it collects what the next request uses (\(count) request\(count == 1 ? "" : "s"), "
      + "the first \(SafeText.line(first.url).prefix(120)))"
  }
}
