internal import ArgumentParser
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

/// What `inspect` does with a file that gives no listing in the mode chosen: name (or, when the
/// mode was guessed, take) a mode that reads it; else exit 1 with what was found instead.
extension Inspect {
  /// The saved file as the answer of a request in `mode`.
  func response(
    _ adapter: any FeedSource, mode: String, _ body: [UInt8], search: Search? = nil
  ) throws -> SourceResponse {
    // A search's own city and parameters, which --city and --param override.
    var values = search?.parameters ?? [:]
    values.merge(try Self.values(parameters, adapter)) { _, given in given }
    let request = adapter.request(
      forSavedResponseIn: mode, city: city ?? search?.cities.first?.name, parameters: values,
      url: url)
    return SourceResponse(
      request: request, body: body, finalURL: url, receivedAt: now.flatMap(Run.parseDate))
  }

  /// The first other mode of the site that reads listings from `body`.
  func otherMode(
    _ adapter: any FeedSource, besides chosen: String, _ body: [UInt8], search: Search? = nil
  ) -> (mode: String, batch: ListingBatch)? {
    for other in adapter.modes where other != chosen {
      guard let answer = try? response(adapter, mode: other, body, search: search),
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

/// `inspect --search NAME`: the file as a search's answer, judged as its run would.
extension Inspect {
  /// The search named in the config, with the config's sites and a runner that reads its store.
  struct Chosen {
    var search: Search
    var sites: SiteCatalog
    var runner: Runner
  }

  func chosenSearch(_ name: String) throws -> Chosen {
    let source = try SourceOptions.parse(["--config", config])
    let (configuration, _, sites) = try source.loadConfig(quiet: true)
    guard let search = configuration.searches.first(where: { $0.name == name }) else {
      throw ValidationError(
        "no search named '\(name)' in \(config)"
          + Suggestions.hint(for: name, in: configuration.searches.map(\.name)))
    }
    let runner = try source.runner(configuration, sites: sites, delivering: false)
    return Chosen(search: search, sites: sites, runner: runner)
  }

  /// Prints each listing's verdict, as `explain` does.
  func judge(_ listings: [Listing], as chosen: Chosen) async throws {
    let explanation: Explanation
    do {
      explanation = try await chosen.runner.explain(
        search: chosen.search.name, listings: listings, now: now.flatMap(Run.parseDate) ?? Date())
    } catch let error as RunError {
      Terminal.error("error: \(error.message)\n")
      throw (error.kind == .usage ? ExitStatus.usage : ExitStatus.stateUnusable).exitCode
    }
    let header =
      "\(file) read as the answer of search '\(chosen.search.name)' (\(chosen.search.site))"
    Terminal.output(
      ([header] + Explain.lines(explanation, onlyKept: false)).joined(separator: "\n") + "\n")
  }
}
