internal import ClarissaCore
internal import Curl
internal import Foundation
internal import Synchronization

/// Asks one routing engine of `routing:` (``RoutingEngine``) for travel times, the way the
/// house asks a service the user named (``Geocoding``): many positions a request where the
/// engine allows it (``OSRMTable``, ``MOTISOneToMany``), one request per `delay`, at most
/// `per_run` requests in the run, every answer bounded and read without traps. An engine that
/// refuses the client (401, 403, 407, 429, or an error saying no request of ours can be
/// served) or fails ``failuresToPause`` times in a row is not asked again in the run; what is
/// left unasked is absent from the answer and said in a note, never guessed.
actor RoutingClient {
  let mode: TravelMode
  let engine: RoutingEngine
  let fetcher: any Fetcher
  let userAgent: String
  let timeout: Double
  let timeZone: TimeZone
  /// Requests made in this run.
  private(set) var requests = 0
  /// Why the engine is not asked again in this run (a refusal 401/403/429, or 3 failures in a
  /// row); nil while it is.
  private(set) var broken: String?
  /// Homes asked in one request at most: the engine's (``OSRMTable/batchSize``,
  /// ``MOTISOneToMany/batchSize``), halved each time the engine answers that a request was
  /// too big.
  private(set) var batchSize: Int
  /// When the last request left.
  private var lastAsked: ContinuousClock.Instant?
  /// The engine's failures in a row (5xx, no answer, an answer not understood).
  private var failingInARow = 0

  /// Failures in a row that pause the engine for the run.
  static let failuresToPause = 3

  init(
    mode: TravelMode, engine: RoutingEngine, fetcher: any Fetcher, userAgent: String,
    timeout: Double, timeZone: TimeZone
  ) {
    self.mode = mode
    self.engine = engine
    self.fetcher = fetcher
    self.userAgent = userAgent
    self.timeout = timeout
    self.timeZone = timeZone
    batchSize = engine.kind == .osrm ? OSRMTable.batchSize : MOTISOneToMany.batchSize
  }

  /// The engine as notes name it: "OSRM http://127.0.0.1:5000 (car)".
  var name: String {
    let url = SafeText.line(engine.url)
    return "\(engine.kind == .osrm ? "OSRM" : "MOTIS") \(SafeText.cut(url, to: 100) ?? url) "
      + "(\(mode.rawValue))"
  }

  /// Travel times in minutes from each of `homes` to `place` (nil inside: the engine found no
  /// route), in as few requests as the engine allows (at most `batchSize` homes a request),
  /// one request per `engine.delay`, at most `engine.perRun` requests in the run. Homes left
  /// unasked (cap reached, engine broken, a failed request) are absent from `times`; `notes`
  /// says why, once per cause, SafeText-cleaned, naming the engine's URL. Homes at one
  /// position are asked once; a home off the globe is not asked.
  func times(to place: Coordinates, from homes: [Coordinates], now: Date) async
    -> (times: [Int: Double?], notes: [String])
  {
    var times: [Int: Double?] = [:]
    var notes = Notes(engine: name)
    guard place.isOnGlobe else {
      notes.add("the place is not a position on the globe", homes.count)
      return (times, notes.lines)
    }
    // One question per position; the homes sharing it share the answer.
    var sharing: [String: [Int]] = [:]
    var queue: [Coordinates] = []
    var offGlobe = 0
    for (index, home) in homes.enumerated() {
      guard home.isOnGlobe else {
        offGlobe += 1
        continue
      }
      let key = "\(home.latitude) \(home.longitude)"
      if sharing[key] == nil { queue.append(home) }
      sharing[key, default: []].append(index)
    }
    if offGlobe > 0 { notes.add("positions off the globe are not asked", offGlobe) }
    func answer(_ home: Coordinates, _ minutes: Double?) {
      for index in sharing["\(home.latitude) \(home.longitude)"] ?? [] { times[index] = minutes }
    }
    func count(_ positions: some Collection<Coordinates>) -> Int {
      positions.reduce(0) { $0 + (sharing["\($1.latitude) \($1.longitude)"]?.count ?? 0) }
    }
    var next = queue[...]
    while !next.isEmpty {
      if let broken {
        notes.add("\(broken); not asked again in this run", count(next))
        break
      }
      guard requests < engine.perRun else {
        notes.add("waiting for the next run (\(engine.perRun) requests a run)", count(next))
        break
      }
      let batch = Array(next.prefix(batchSize))
      switch await ask(place, batch, now: now) {
      case .success(let minutes):
        failingInARow = 0
        for (home, minutes) in zip(batch, minutes) { answer(home, minutes) }
        next = next.dropFirst(batch.count)
      case .failure(let failure):
        switch failure.blame {
        case .tooBig where batch.count > 1:
          batchSize = max(1, batch.count / 2)
          notes.add("\(failure.why); asking \(batchSize) at a time", 0)
        case .positions:
          failingInARow = 0
          if failure.unplaced == 0 {
            // OSRM could not place coordinate 0, the place: every request would fail.
            broken = "\(failure.why), the place itself"
          } else if let unplaced = failure.unplaced, (1...batch.count).contains(unplaced) {
            // A home OSRM could not place has no route; the others are asked again.
            answer(batch[unplaced - 1], nil)
            notes.add("\(failure.why): no route for it", 0)
            let rest = batch.enumerated().filter { $0.offset != unplaced - 1 }.map(\.element)
            next = rest[...] + next.dropFirst(batch.count)
          } else {
            notes.add(failure.why, count(batch))
            next = next.dropFirst(batch.count)
          }
        case .client, .tooBig:
          broken = failure.why
        case .service:
          failingInARow += 1
          notes.add(failure.why, count(batch))
          next = next.dropFirst(batch.count)
          if failingInARow >= Self.failuresToPause {
            broken = "\(failure.why) (\(failingInARow) failures in a row)"
          }
        }
      }
    }
    return (times, notes.lines)
  }

  /// One request, `delay` after the last: the minutes of each of `homes`, or why not.
  private func ask(_ place: Coordinates, _ homes: [Coordinates], now: Date) async -> Result<
    [Double?], RoutingFailure
  > {
    if let lastAsked {
      let wait = Duration.milliseconds(engine.delay.milliseconds) - (.now - lastAsked)
      if wait > .zero { try? await Task.sleep(for: wait) }
    }
    lastAsked = .now
    requests += 1
    let url: String?
    switch engine.kind {
    case .osrm:
      url = OSRMTable.url(engine: engine, mode: mode, place: place, homes: homes)
    case .motis:
      url = MOTISOneToMany.url(
        engine: engine, place: place, homes: homes, now: now, timeZone: timeZone)
    }
    guard let url else {
      return .failure(RoutingFailure("its URL or profile cannot make a request", .client))
    }
    let request = RequestSpec(
      url: url, headers: ["Accept": "application/json", "User-Agent": userAgent],
      mode: "routing", allowsConditionalGET: false, allowsPrivateRedirects: true)
    switch await Self.fetch(request, from: fetcher, within: timeout) {
    case .failure(let error):
      return .failure(RoutingFailure(RoutingFailure.words(error.message), .service))
    case .success(let response):
      switch (engine.kind, response.status) {
      case (.osrm, 200): return OSRMTable.minutes(response.body, expected: homes.count)
      case (.osrm, _):
        return .failure(OSRMTable.failure(status: response.status, body: response.body))
      case (.motis, 200): return MOTISOneToMany.minutes(response.body, expected: homes.count)
      case (.motis, _):
        return .failure(MOTISOneToMany.failure(status: response.status, body: response.body))
      }
    }
  }
}

extension RoutingClient {
  /// `request` made by `fetcher`, or a timeout after `seconds` when it has not answered by
  /// then (the fetcher is cancelled and its answer, should it come, is dropped): a hanging
  /// engine costs a run `timeout`, whatever limits the fetcher was built with.
  static func fetch(_ request: RequestSpec, from fetcher: any Fetcher, within seconds: Double)
    async -> Result<HTTPResponse, FetchError>
  {
    let wait = Duration.nanoseconds(Int64(CheckedNumber.nanoseconds(seconds)))
    return await withCheckedContinuation { continuation in
      let answer = FirstAnswer(continuation)
      let fetching = Task {
        answer.give(await fetcher.fetch(request, headers: [:]))
      }
      let timer = Task {
        try? await Task.sleep(for: wait)
        guard !Task.isCancelled else { return }
        answer.give(
          .failure(FetchError(.timeout, "no answer in \(CheckedNumber.text(seconds)) s")))
        fetching.cancel()
      }
      answer.onAnswer { timer.cancel() }
    }
  }
}

/// The first of two answers, handed on once.
private final class FirstAnswer: Sendable {
  private let state:
    Mutex<
      (
        waiting: CheckedContinuation<Result<HTTPResponse, FetchError>, Never>?,
        then: (@Sendable () -> Void)?, done: Bool
      )
    >

  init(_ continuation: CheckedContinuation<Result<HTTPResponse, FetchError>, Never>) {
    state = Mutex((continuation, nil, false))
  }

  /// Runs `action` once an answer is given (at once when it was).
  func onAnswer(_ action: @escaping @Sendable () -> Void) {
    let now = state.withLock { state -> Bool in
      if state.done { return true }
      state.then = action
      return false
    }
    if now { action() }
  }

  func give(_ result: Result<HTTPResponse, FetchError>) {
    let taken = state.withLock { state in
      let taken = (state.waiting, state.then)
      state.waiting = nil
      state.then = nil
      state.done = true
      return taken
    }
    taken.0?.resume(returning: result)
    taken.1?()
  }
}

/// A run's notes about one engine: one per cause, with the positions it left unasked.
private struct Notes {
  let engine: String
  private var causes: [String] = []
  private var positions: [String: Int] = [:]

  init(engine: String) { self.engine = engine }

  mutating func add(_ cause: String, _ count: Int) {
    if positions[cause] == nil { causes.append(cause) }
    positions[cause, default: 0] += count
  }

  var lines: [String] {
    causes.map { cause in
      let count = positions[cause] ?? 0
      let left =
        count == 0 ? "" : " (\(count) \(count == 1 ? "position" : "positions") without a time)"
      return SafeText.line("\(engine): \(cause)\(left)")
    }
  }
}
