internal import Channels
public import ClarissaCore
public import Foundation
internal import ListingStore
internal import Presentation

/// The terminal report and the one-line summary every format ends with. Both say what happened
/// in the JSON report's terms and counts: `new` is this run's new listings (held ones included),
/// listings found earlier and delivered now are never counted as new, a search counts as run
/// only when a source answered.
extension RunReport {
  /// The terminal report: new listings grouped by search, with price, place, age and link, then
  /// one line for each search that did not simply run (first run, not due, failed, cooling
  /// down, quiet hours), refusals and failed deliveries, and the summary. With `listingsOnly`,
  /// only the listings (for `--quiet`). `searches` (by name) word each listing's facts and
  /// distances as its search does.
  public static func text(
    _ result: RunResult, colored: Bool, listingsOnly: Bool = false,
    timeZone: TimeZone = .current, searches: [String: Search] = [:]
  ) -> String {
    let paint = Paint(enabled: colored)
    var lines: [String] = []
    for search in result.searches {
      let configured = searches[search.name]
      let fresh = search.held > 0 ? [] : search.new
      if !fresh.isEmpty {
        lines.append(paint.bold("\(search.name): \(fresh.count) new"))
        for listing in fresh {
          lines += block(listing, now: result.time, paint: paint, search: configured)
          let also = search.alsoPosted(as: listing.id)
          if !also.isEmpty {
            lines.append(paint.dim("    also posted as \(also.joined(separator: ", "))"))
          }
        }
      }
      if !search.changed.isEmpty {
        lines.append(paint.bold("\(search.name): \(search.changed.count) changed"))
        for listing in search.changed {
          let kind = listing.event?.kind.words ?? ""
          lines.append("  \(kind): \(Change.describe(listing) ?? "")")
          if listing.event?.kind == .changed {
            lines += TextChangeWords.diff(listing).split(separator: "\n").map { "    \($0)" }
          }
          lines += block(listing, now: result.time, paint: paint, search: configured)
        }
      }
      if !search.delivered.isEmpty {
        lines.append(
          paint.bold("\(search.name): \(search.delivered.count) found earlier, delivered now"))
        for listing in search.delivered {
          lines += block(listing, now: result.time, paint: paint, search: configured)
        }
      }
      if listingsOnly { continue }
      // Workers sharing the store: what the others took is one line below, not one each.
      if result.sharedBy != nil, search.status == .notDue { continue }
      lines += status(search, now: result.time, timeZone: timeZone, paint: paint)
    }
    if listingsOnly { return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }
    let elsewhere = result.searches.filter { $0.status == .notDue }.count
    if let worker = result.sharedBy, elsewhere > 0 {
      lines.append(
        paint.dim(
          "\(count(elsewhere, "search")): not due, or other workers have them (\(worker) took "
            + "none of their sources this round)"))
    }
    if let behind = result.behind { lines.append(paint.red("behind: \(behind)")) }
    for block in result.blocks { lines.append(paint.red("blocked: \(block)")) }
    for failure in result.deliveryFailures {
      lines.append(paint.red("not delivered: \(failure)"))
    }
    lines.append(paint.dim(summary(result)))
    return lines.joined(separator: "\n") + "\n"
  }

  /// A search's own lines besides its listings.
  private static func status(
    _ search: RunResult.SearchOutcome, now: Date, timeZone: TimeZone, paint: Paint
  ) -> [String] {
    var lines: [String] = []
    let name = search.name
    if search.held > 0 {
      lines.append(paint.dim("\(name): \(search.held) new, held until quiet hours end"))
    }
    switch search.status {
    case .primed:
      let detail = search.detail ?? "\(count(search.primed, "listing")) recorded, not notified"
      let hint =
        detail.hasPrefix("first run")
        ? " (--notify-first-run on a search's first run notifies them instead)" : ""
      lines.append(paint.dim("\(name): \(detail)\(hint)"))
    case .ran where search.primed > 0:
      lines.append(
        paint.dim(
          "\(name): \(count(search.primed, "listing")) from sources answering for the first "
            + "time recorded, not notified"))
    case .failed, .coolingDown, .quietHours:
      if let detail = search.detail { lines.append(paint.dim("\(name): \(detail)")) }
    case .notDue:
      let when = search.next.map {
        "next in \(ReportClock.span($0.timeIntervalSince(now))) (at "
          + "\(ReportClock.time($0, now: now, timeZone: timeZone)))"
      }
      lines.append(paint.dim("\(name): not due" + (when.map { ", \($0)" } ?? "")))
    default: break
    }
    let reposts = search.folded.filter { $0.firstSeen != nil }
    if !reposts.isEmpty {
      let examples = reposts.prefix(3).map { "\($0.id) of \($0.repostOf)" }.joined(separator: ", ")
      lines.append(
        paint.dim(
          "\(name): \(count(reposts.count, "repost")) of listings seen before, not announced "
            + "(\(examples)\(reposts.count > 3 ? ", ..." : ""))"))
    }
    if let elsewhere = search.onOtherSites {
      lines.append(
        paint.dim("\(name): \(elsewhere) already on another site, recorded, not announced"))
    }
    for failure in search.failures { lines.append(paint.red("\(name): failed: \(failure)")) }
    // What bit (a cut, the geocoder, items passed over): said here too, not only in JSON. The
    // geocoder's notes (``Geocoding``) decide `near` and `within`: they speak for themselves.
    for note in search.notes {
      let line = SafeText.line(note)
      lines.append(paint.dim("\(name): " + (note.hasPrefix("geocoder: ") ? line : "note: \(line)")))
    }
    return lines
  }

  /// One line on what ran, in the JSON report's counts.
  public static func summary(_ result: RunResult) -> String {
    func number(of status: SearchStatus) -> Int {
      result.searches.filter { $0.status == status }.count
    }
    let ran = number(of: .ran) + number(of: .primed)
    var parts = ["\(ran) of \(count(result.searches.count, "search")) ran"]
    if number(of: .failed) > 0 {
      parts.append("\(number(of: .failed)) failed: no source answered")
    }
    if number(of: .coolingDown) > 0 {
      parts.append("\(number(of: .coolingDown)) not checked: hosts cooling down")
    }
    let new = result.newListings.count
    let held = result.searches.reduce(0) { $0 + $1.held }
    parts.append("\(new) new" + (held > 0 ? " (\(held) held)" : ""))
    let delivered = result.searches.reduce(0) { $0 + $1.delivered.count }
    if delivered > 0 { parts.append("\(delivered) found earlier, delivered now") }
    let changed = result.searches.flatMap(\.changed)
    if !changed.isEmpty { parts.append(Self.changes(changed)) }
    let folded = result.searches.reduce(0) { $0 + $1.folded.count }
    if folded > 0 { parts.append("\(folded) reposts folded") }
    let primed = result.searches.reduce(0) { $0 + $1.primed }
    if number(of: .primed) > 0 || primed > 0 {
      parts.append("\(primed) recorded without notifying")
    }
    let waiting = result.searches.filter { $0.status == .notDue }
    if !waiting.isEmpty {
      let soonest = waiting.compactMap(\.next).min()
      parts.append(
        "\(waiting.count) not due"
          + (soonest.map { " (next in \(ReportClock.span($0.timeIntervalSince(result.time))))" }
            ?? ""))
    }
    if number(of: .quietHours) > 0 { parts.append("\(number(of: .quietHours)) in quiet hours") }
    if result.dryRun { parts.append("dry run: nothing saved or sent") }
    return parts.joined(separator: ", ")
  }

  /// "1 price drop", "2 changed (1 price drop, 1 back)": what changed, by kind.
  static func changes(_ listings: [Listing]) -> String {
    var counts: [ListingEventKind: Int] = [:]
    for listing in listings { counts[listing.event?.kind ?? .new, default: 0] += 1 }
    let kinds = counts.keys.sorted().map { counted(counts[$0] ?? 0, $0) }
    return kinds.count == 1
      ? kinds[0] : "\(listings.count) changed (\(kinds.joined(separator: ", ")))"
  }

  /// "1 price drop", "3 price drops", "2,000 changed", "4 returned", "51 new": only the nouns
  /// take a plural.
  static func counted(_ count: Int, _ kind: ListingEventKind) -> String {
    let number = CheckedNumber.grouped(count)
    switch kind {
    case .priceDrop, .priceRise: return "\(number) \(kind.words)" + (count == 1 ? "" : "s")
    case .back: return "\(number) returned"
    case .new, .changed, .gone, .reposted: return "\(number) \(kind.words)"
    }
  }

  /// "1 search", "2 searches", "1 listing", "3 listings".
  static func count(_ number: Int, _ noun: String) -> String {
    let plural = noun.hasSuffix("h") ? noun + "es" : noun + "s"
    return "\(number) \(number == 1 ? noun : plural)"
  }
}
