internal import ClarissaCore
internal import Curl
internal import Foundation
internal import ListingStore

/// The run's commute stage (issue 44): the travel time of each listing of a search with
/// `commute:` limits, before the search is judged. Per limit, a listing farther in a straight
/// line than the mode's reach costs no request; then the store's answers (``CommuteLookup``);
/// then the mode's engine (``RoutingClient``, one per mode for the whole run, shared by its
/// searches) for the grid cells still unknown, the nearest to the place first, and its
/// answers kept. An engine missing, failing or past its `per_run` leaves the time unknown with
/// a note on the listing ("engine failed", "left for the next run") and on the search's line;
/// the search still runs, and nothing is guessed.
struct Commuting: Sendable {
  let routing: RoutingSettings
  /// The engines of the modes `routing:` names.
  let clients: [TravelMode: RoutingClient]

  /// The engines of `routing`; `timeZone` is the one MOTIS's moment (`arrive: "Mon 08:30"`)
  /// is read in: the machine's.
  init(
    routing: RoutingSettings, fetcher: any Fetcher, userAgent: String, timeout: Double,
    timeZone: TimeZone
  ) {
    self.routing = routing
    var clients: [TravelMode: RoutingClient] = [:]
    for (mode, engine) in routing.engines {
      clients[mode] = RoutingClient(
        mode: mode, engine: engine, fetcher: fetcher, userAgent: userAgent, timeout: timeout,
        timeZone: timeZone)
    }
    self.clients = clients
  }

  /// `reading` with `listing.commute` filled on every listing of its batches, for `limits`.
  /// With `asking` false (a dry run, `explain`) only the store's answers are used and nothing
  /// is written.
  func attach(
    _ reading: SearchReading, limits: [CommuteLimit], memory: any ListingMemory, now: Date,
    asking: Bool
  ) async -> SearchReading {
    var reading = reading
    guard !limits.isEmpty else { return reading }
    let listings = reading.batches.flatMap(\.listings)
    var sheets: [CommuteSheet] = []
    for limit in limits {
      var sheet = CommuteSheet(limit, listings, engine: routing.engines[limit.mode])
      do {
        try sheet.read(memory)
      } catch {
        reading.notes.append("commute: the store's travel times could not be read: \(error)")
      }
      if asking, let client = clients[limit.mode] {
        reading.notes += await ask(client, for: &sheet, memory: memory, now: now)
      }
      if sheet.engine == nil, sheet.cells.contains(where: { sheet.known[$0.key] == nil }) {
        reading.notes.append(
          "commute: no engine for \(limit.mode.rawValue) in routing:, so no travel time to "
            + "\(SafeText.line(limit.place.name)) is known")
      }
      sheets.append(sheet)
    }
    var all = listings
    CommuteLookup.fill(&all, from: sheets)
    var next = all[...]
    for batch in reading.batches.indices {
      let count = reading.batches[batch].listings.count
      reading.batches[batch].listings = Array(next.prefix(count))
      next = next.dropFirst(count)
    }
    return reading
  }

  /// Asks `client` for the cells of `sheet` the store did not know, keeps the answers, and
  /// says why the others stay unknown. Returns the engine's notes.
  private func ask(
    _ client: RoutingClient, for sheet: inout CommuteSheet, memory: any ListingMemory, now: Date
  ) async -> [String] {
    let due = sheet.unanswered
    guard !due.isEmpty, let engine = sheet.engine else { return [] }
    let asked = await client.times(
      to: sheet.limit.place.coordinates, from: due.map(\.point), now: now)
    var answers: [String: Double?] = [:]
    for (index, minutes) in asked.times where due.indices.contains(index) {
      // `.some`: an engine's "no route" (nil) is an answer kept as such, never a removed key
      // (a bare `nil` here would drop it, and the cell would be asked again every run).
      answers[due[index].key] = .some(minutes)
    }
    var notes = asked.notes
    do {
      try memory.rememberTravelTimes(
        engine: engine.cacheName, mode: sheet.limit.mode, place: sheet.place, answers, at: now)
    } catch {
      notes.append("commute: the travel times could not be kept: \(error)")
    }
    sheet.known.merge(answers) { _, new in new }
    if answers.count < due.count {
      let broken = await client.broken != nil
      let capped = await client.requests >= engine.perRun
      sheet.unknown = !broken && capped ? "left for the next run" : "engine failed"
    }
    return notes
  }
}

extension Runner {
  /// The run's commute stage, nil when no search has `commute:` limits.
  func commuting(timeZone: TimeZone = .current) -> Commuting? {
    guard config.searches.contains(where: { !$0.facts.commute.isEmpty }) else { return nil }
    return Commuting(
      routing: config.routing, fetcher: scheduler.fetcher, userAgent: config.http.userAgent,
      timeout: config.http.timeout.timeInterval, timeZone: timeZone)
  }

  /// `reading` with its listings' travel times for `search`'s `commute:` limits
  /// (``Commuting/attach``), after they were placed: `run` and `explain` both time listings
  /// here, so they cannot disagree about one.
  func commuted(
    _ reading: SearchReading, for search: Search, by commuting: Commuting?,
    memory: any ListingMemory, now: Date, asking: Bool
  ) async -> SearchReading {
    guard let commuting, !search.facts.commute.isEmpty else { return reading }
    return await commuting.attach(
      reading, limits: search.facts.commute, memory: memory, now: now, asking: asking)
  }
}
