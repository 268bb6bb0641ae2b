import ClarissaCore
import Foundation

/// Cool-downs: which cooling hosts are asked once, what is said about a refusal, and lifting a
/// cool-down when the host answers again.
extension RunPass {
  /// Cooling hosts worth one request this run, with why: `--search NAME --force` asks each of
  /// the search's hosts once; a request URL the cool-down was not set by (the user fixed the
  /// URL) asks a refusing host once. A rate limit is the server asking for time: only the
  /// explicit `--force` asks it again.
  func retries(for work: [FetchJob]) -> [String: String] {
    var why: [String: String] = [:]
    for job in work where why[job.host] == nil {
      guard let cooldown = state.cooldowns[job.host], cooldown.until > options.now else {
        continue
      }
      if let only = options.only, options.force {
        why[job.host] = "of 'run --search \(only) --force'"
      } else if !cooldown.isRateLimit, let urls = cooldown.urls,
        !urls.contains(job.request.url)
      {
        why[job.host] = "a request URL changed"
      }
    }
    return why
  }

  /// A host asked once that did not refuse again is cooling down no more.
  mutating func liftAnswered(_ work: [FetchJob]) {
    for (host, why) in retrying.sorted(by: { $0.key < $1.key }) where cooled[host] == nil {
      state.cooldowns.removeValue(forKey: host)
      for search in Set(work.filter { $0.host == host }.map(\.search)).sorted() {
        note(search, note: "\(host) was asked once because \(why), and answered: cool-down lifted")
      }
    }
  }

  /// The request URLs of `host` this run.
  func asked(of host: String, in outcomes: [FetchOutcome]) -> [String] {
    outcomes.filter { $0.job.host == host }.map(\.job.request.url)
  }

  /// A block page read from an answer (a 200 saying "blocked"): the host cools down as after a
  /// 403, measured on the run's clock.
  mutating func block(_ host: String, _ reason: String, asked urls: [String]) {
    let previous = state.cooldowns[host].flatMap { $0.until > options.now ? $0 : nil }
    let cooldown = Cooldown(
      until: options.now.addingTimeInterval(runner.scheduler.settings.blockCooldown),
      reason: "answered with a block page", since: previous?.since ?? options.now,
      answer: reason, urls: urls)
    if !options.dryRun { state.cooldowns[host] = cooldown }
    cooled[host] = cooldown
    report(host, cooldown)
  }

  /// The refusal said once per host, with advice that fits the host.
  mutating func report(_ host: String, _ cooldown: Cooldown) {
    let message = cooldown.advice(
      host: host, renewed: retrying[host], now: options.now, timeZone: options.timeZone)
    if !result.blocks.contains(message) { result.blocks.append(message) }
  }

  /// A host skipped because it is still cooling down: until when, why, and the two ways to ask
  /// it sooner.
  mutating func reportCooling(_ host: String, _ cooldown: Cooldown, search: String) {
    let when = ReportClock.time(cooldown.until, now: options.now, timeZone: options.timeZone)
    let prefix = "\(host) is cooling down until \(when) (\(cooldown.why)): not asked this run"
    guard !result.blocks.contains(where: { $0.hasPrefix(prefix) }) else { return }
    result.blocks.append(
      prefix + "; ask it once with 'clarissa run --search \(search) --force', "
        + "or clear with 'clarissa state cooldowns --clear \(host)'")
  }
}
