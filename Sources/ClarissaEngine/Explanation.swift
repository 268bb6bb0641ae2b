import ClarissaCore
import Foundation

/// What `clarissa explain` shows for one search: every listing its sources return, the filter
/// decision and why, and where it stands against the state.
public struct Explanation: Sendable {
  /// One listing's story.
  public struct Entry: Sendable {
    /// The listing.
    public var listing: Listing
    /// Whether it passes the filters and price range.
    public var accepted: Bool
    /// Which filter decided, or why it was dropped.
    public var reason: String
    /// `new`, `held`, `seen since <date>`, `delivered to ...`, or `would be primed`.
    public var status: String
  }

  /// The search.
  public var search: String
  /// Each listing, in the sources' order.
  public var entries: [Entry]
  /// Sources that failed.
  public var failures: [String]
}

extension Runner {
  /// Fetches one search (every city, no conditional GET) and explains each listing; reads the
  /// state without locking or changing it.
  public func explain(search name: String, now: Date) async throws -> Explanation {
    guard let search = config.searches.first(where: { $0.name == name }) else {
      throw RunError(
        kind: .usage,
        message: "no search named '\(name)'"
          + Suggestions.hint(for: name, in: config.searches.map(\.name)))
    }
    guard let site = sites.site(search.site) else {
      throw RunError(kind: .usage, message: "search '\(name)' uses an unknown site")
    }
    let state: State
    do { state = try StateStore(path: statePath).load() } catch let problem as StateStore.Problem {
      throw RunError(kind: .state, message: problem.message)
    }
    let jobs = site.requests(for: search).map {
      FetchJob(search: name, request: $0, politeness: site.politeness)
    }
    let (outcomes, _) = await scheduler.run(
      jobs, validators: [:], cooldowns: state.cooldowns, now: now)
    var listings: [Listing] = []
    var failures: [String] = []
    var ids = Set<String>()
    var sourceOf: [String: String] = [:]
    for outcome in outcomes {
      switch outcome.status {
      case .answered(let response):
        let source = SourceResponse(
          request: outcome.job.request, status: response.status, headers: response.headers,
          body: response.body, finalURL: response.finalURL)
        do {
          for listing in try site.listings(from: source).listings
          where ids.insert(listing.id).inserted {
            listings.append(listing)
            sourceOf[listing.id] = outcome.job.request.url
          }
        } catch {
          failures.append("\(outcome.job.request.url): \(error)")
        }
      case .failed(let reason), .blocked(let reason), .skipped(let reason):
        failures.append("\(outcome.job.request.url): \(reason)")
      case .notModified:
        continue
      }
    }
    let memory = state.searches[name]
    let held = Set(state.held.filter { $0.search == name }.map(\.listing.id))
    let entries = listings.map { listing -> Explanation.Entry in
      let verdict = ListingFilter.verdict(listing, for: search)
      let status: String
      if !verdict.accepted {
        status = "ignored"
      } else if held.contains(listing.id) {
        status = "held until quiet hours end"
      } else if let seen = memory?.seen[listing.id] {
        let channels =
          seen.deliveredTo.isEmpty
          ? "" : ", delivered to \(seen.deliveredTo.joined(separator: ", "))"
        status = "seen since \(AtomFeed.timestamp(seen.firstSeen))\(channels)"
      } else if !(memory?.hasRun ?? false) {
        status = "would be recorded silently (the search's first run)"
      } else if let url = sourceOf[listing.id], memory?.knows(source: url) == false {
        status = "would be recorded silently (its source answers for the first time)"
      } else {
        status = "new"
      }
      return Explanation.Entry(
        listing: listing, accepted: verdict.accepted, reason: verdict.reason, status: status)
    }
    return Explanation(search: name, entries: entries, failures: failures)
  }
}
