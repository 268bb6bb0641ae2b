internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Synchronization

/// One search's answers, handed on as soon as every request of it has ended: the search as
/// planned (with its slot in the run's outcomes), what its sources said, and the URLs it asks.
struct SearchAnswer: Sendable {
  /// The search as planned; ``PlannedSearch/slot`` is its place in the run's outcomes.
  let planned: PlannedSearch
  /// What its sources said.
  let reading: SearchReading
  /// The URLs the search asks now (all of them, whichever worker fetched each).
  let asked: Set<String>
}

/// The fetch and read stages of a run as a sequence of its searches' answers, each as soon as
/// every request of that search has ended, while the other searches' requests go on: first the
/// searches with nothing to ask, then the others in the order their last requests end, then
/// those whose answers asked for follow-up requests (made after the first requests, up to
/// ``FetchStage/followUpRounds`` rounds, each as polite as the first), by name. The requests
/// are made in a task of their own (``fetching``), started when the first search that asks
/// something is wanted; each answer is read when it is asked for, between two searches' turns.
/// After the last answer, ``reading`` holds everything read.
final class FetchAnswers: AsyncSequence, AsyncIteratorProtocol {
  typealias Element = SearchAnswer

  /// The requests being made: cancelled with the run that reads the answers.
  let fetching = FetchTask()
  /// Everything read, the cool-downs included, once the last answer was given.
  private(set) var reading = Reading()
  private let planned: [PlannedSearch]
  /// Per planned search (same index), the URLs it asks.
  private let asked: [Set<String>]
  /// Where a finished request's search is in `planned`: the scheduler's jobs name their search.
  private let place: [String: Int]
  private let work: [FetchJob]
  private let validators: [String: Validators]
  private let sites: SiteCatalog
  private let scheduler: RequestScheduler
  private let options: RunOptions
  private let known: [String: KnownItems]
  private var stream: Streamed
  private var ready: [SearchAnswer] = []
  private let continuation: AsyncStream<(FetchOutcome, Cooldown?)>.Continuation
  private var outcomes: AsyncStream<(FetchOutcome, Cooldown?)>.Iterator
  private var phase = Phase.before

  /// Where the requests are.
  private enum Phase { case before, fetching, done }

  /// The answers of `planned`'s requests in `work` (the jobs, `jobs[i]` those of `planned[i]`).
  init(
    _ planned: [PlannedSearch], jobs: [[FetchJob]], work: [FetchJob],
    cooldowns: [String: Cooldown], retrying: [String: String],
    validators: [String: Validators], sites: SiteCatalog, scheduler: RequestScheduler,
    options: RunOptions, known: [String: KnownItems]
  ) {
    self.planned = planned
    self.asked = jobs.map { Set($0.map(\.request.url)) }
    self.place = Dictionary(planned.enumerated().map { ($1.search.name, $0) }) { first, _ in
      first
    }
    self.work = work
    self.validators = validators
    self.sites = sites
    self.scheduler = scheduler
    self.options = options
    self.known = known
    let urls = Dictionary(grouping: work, by: \.host).mapValues { $0.map(\.request.url) }
    stream = Streamed(
      pending: Dictionary(grouping: work, by: \.search).mapValues(\.count), urls: urls,
      retrying: retrying, cooldowns: cooldowns)
    let (outcomes, continuation) = AsyncStream.makeStream(of: (FetchOutcome, Cooldown?).self)
    self.outcomes = outcomes.makeAsyncIterator()
    self.continuation = continuation
    // Nothing to ask (a site with no request for it): read at once, as having said nothing.
    for (index, entry) in planned.enumerated() where stream.pending[entry.search.name] == nil {
      ready.append(SearchAnswer(planned: entry, reading: SearchReading(), asked: asked[index]))
    }
  }

  func makeAsyncIterator() -> FetchAnswers { self }

  /// The next search whose requests have all ended; nil once every one was given.
  func next() async -> SearchAnswer? {
    while true {
      if !ready.isEmpty { return ready.removeFirst() }
      switch phase {
      case .before: start()
      case .fetching: if let answer = await read() { return answer }
      case .done: return nil
      }
    }
  }

  /// Starts the requests: the scheduler hands each outcome over the moment it is known.
  private func start() {
    phase = .fetching
    let (scheduler, work, validators, options) = (scheduler, work, validators, options)
    let (cooldowns, retrying, continuation) = (
      stream.cooldowns, Set(stream.retrying.keys), continuation
    )
    fetching.start {
      let done = await scheduler.run(
        work, validators: validators, cooldowns: cooldowns, retrying: retrying, now: options.now
      ) { continuation.yield(($0, $1)) }
      continuation.finish()
      return done
    }
  }

  /// Reads outcomes until a search's last request has ended; once every first request has,
  /// makes the follow-up rounds and queues their searches. Nil: nothing left.
  private func read() async -> SearchAnswer? {
    let searches = planned.map(\.search)
    let blockCooldown = scheduler.settings.blockCooldown
    while let (outcome, cooled) = await outcomes.next() {
      guard let part = stream.add(outcome, cooled: cooled) else { continue }
      let name = outcome.job.search
      let reading = ReadStage.run(
        part, sites: sites, searches: searches, options: options, blockCooldown: blockCooldown,
        known: known)
      if reading.followUps.isEmpty {
        stream.read.merge(reading)
        if let answer = answer(name, reading.searches[name] ?? SearchReading()) { return answer }
      } else {
        let followUps = stream.waiting.followUps + reading.followUps
        stream.waiting.merge(reading)
        stream.waiting.followUps = followUps
      }
    }
    phase = .done
    let (done, cooled) = await fetching.value
    let fetched = Fetched(
      asked: [:], outcomes: done, cooled: cooled, retrying: stream.retrying,
      cooldowns: stream.cooldowns, urls: stream.urls)
    if !stream.waiting.searches.isEmpty {
      let waiting = await FetchStage.followUp(
        stream.waiting, fetched: fetched, sites: sites, scheduler: scheduler, options: options,
        searches: searches)
      ready = waiting.searches.keys.sorted().compactMap {
        answer($0, waiting.searches[$0] ?? SearchReading())
      }
      stream.read.merge(waiting)
    }
    stream.read.cooled.merge(cooled) { kept, _ in kept }
    stream.read.followUps = []
    reading = stream.read
    return nil
  }

  /// The answer of the search the scheduler's jobs name `name`.
  private func answer(_ name: String, _ reading: SearchReading) -> SearchAnswer? {
    guard let index = place[name] else { return nil }
    return SearchAnswer(planned: planned[index], reading: reading, asked: asked[index])
  }
}

/// The scheduler's requests of one run, made in a task of their own while the run reads the
/// answers: cancelled when the run is (a stopping `watch`), before or after they start.
final class FetchTask: Sendable {
  /// The requests' task once started, and whether the run was cancelled.
  private let state = Mutex<
    (task: Task<([FetchOutcome], [String: Cooldown]), Never>?, cancelled: Bool)
  >((nil, false))

  /// Starts `operation`, cancelled at once if the run already was.
  func start(
    _ operation: @escaping @Sendable () async -> ([FetchOutcome], [String: Cooldown])
  ) {
    state.withLock { state in
      let task = Task(operation: operation)
      if state.cancelled { task.cancel() }
      state.task = task
    }
  }

  /// Cancels the requests: those not sent yet are skipped ("clarissa is stopping").
  func cancel() {
    state.withLock { state in
      state.cancelled = true
      state.task?.cancel()
    }
  }

  /// Every outcome and the cool-downs set, once the requests have ended.
  var value: ([FetchOutcome], [String: Cooldown]) {
    get async {
      guard let task = state.withLock({ $0.task }) else { return ([], [:]) }
      return await task.value
    }
  }

  /// Cancels the requests and waits for them to end: a run that stops on an error leaves no
  /// request behind it.
  func stop() async {
    cancel()
    _ = await value
  }
}

/// The outcomes of a run's requests as they arrive, gathered per search until each search's
/// last request has ended.
struct Streamed {
  /// Per search, its requests not yet ended.
  var pending: [String: Int]
  let urls: [String: [String]]
  let retrying: [String: String]
  let cooldowns: [String: Cooldown]
  /// The outcomes so far of searches still waiting for some.
  var outcomes: [String: [FetchOutcome]] = [:]
  /// Cool-downs set so far this run, by host.
  var cooled: [String: Cooldown] = [:]
  /// What the searches read so far said.
  var read = Reading()
  /// Searches whose answers asked for follow-up requests, read up to there.
  var waiting = Reading()

  /// Adds one outcome; returns the search's requests once its last one has ended.
  mutating func add(_ outcome: FetchOutcome, cooled host: Cooldown?) -> Fetched? {
    let name = outcome.job.search
    if let host { cooled[outcome.job.host] = host }
    outcomes[name, default: []].append(outcome)
    let left = (pending[name] ?? 1) - 1
    pending[name] = left
    guard left <= 0, let done = outcomes.removeValue(forKey: name) else { return nil }
    let hosts = Set(done.map(\.job.host))
    return Fetched(
      asked: [name: Set(done.map(\.job.request.url))], outcomes: done, cooled: cooled,
      retrying: retrying.filter { hosts.contains($0.key) }, cooldowns: cooldowns, urls: urls)
  }
}
