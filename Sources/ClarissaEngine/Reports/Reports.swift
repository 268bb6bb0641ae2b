public import ClarissaCore
internal import Foundation
internal import Geography

/// The run's report in the three formats `run --format` offers.
public enum RunReport {
  static func block(
    _ listing: Listing, now: Date, paint: Paint, search: Search? = nil
  ) -> [String] {
    let listing = ListingCheck.shown(listing)
    var facts: [String] = []
    if let price = Money.format(listing) { facts.append(paint.green(price)) }
    if let place = listing.location ?? listing.area { facts.append(place) }
    if let posted = listing.posted { facts.append(Age.describe(from: posted, to: now)) }
    let head = facts.isEmpty ? "" : facts.joined(separator: " · ") + "  "
    let line = search.map { ListingFacts.line(listing, for: $0) } ?? ListingFacts.summary(listing)
    let described = line.map { ["    " + $0] } ?? []
    let signs = listing.signals.map { "    " + paint.red("⚠ " + SafeText.line($0.text)) }
    let context = (listing.alert?.context ?? []).map { "    " + SafeText.line($0) }
    return ["  " + head + listing.title] + described + signs + context + [
      "    " + paint.dim(listing.url)
    ]
  }

  /// The JSON report (schema in docs/run-report.md).
  public static func json(_ result: RunResult) -> String {
    let data = ListingJSON.data(JSONReport(result)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// The Markdown report (for `$GITHUB_STEP_SUMMARY` and chat); `searches` (by name) word each
  /// listing's facts and distances as its search does.
  public static func markdown(_ result: RunResult, searches: [String: Search] = [:]) -> String {
    var lines = ["## clarissa: \(result.newListings.count) new listings", ""]
    for search in result.searches
    where !search.new.isEmpty || !search.delivered.isEmpty || !search.failures.isEmpty
      || !search.notes.isEmpty
    {
      lines.append("### \(search.name)")
      lines.append("")
      if search.held > 0 { lines.append("_\(search.held) held until quiet hours end_") }
      // Listings found earlier are delivered now, not new: said apart, as the text report does.
      let groups = [
        (search.held > 0 ? [] : search.new, ""), (search.delivered, " (found earlier)"),
      ]
      for (listings, label) in groups {
        for listing in listings {
          let price = Money.format(listing).map { " — \($0)" } ?? ""
          let place = (listing.location ?? listing.area).map { " — \($0)" } ?? ""
          let facts =
            (searches[search.name].map { ListingFacts.line(listing, for: $0) }
            ?? ListingFacts.summary(listing)).map { " — \(escape($0))" } ?? ""
          let others = search.alsoPosted(as: listing.id)
          let also = others.isEmpty ? "" : " (also posted as \(others.joined(separator: ", ")))"
          lines.append(
            "- [\(escape(listing.title))](\(listing.url))\(price)\(place)\(facts)\(label)\(also)")
          for signal in listing.signals { lines.append("  - ⚠️ \(escape(signal.text))") }
        }
      }
      for failure in search.failures { lines.append("- ⚠️ \(escape(failure))") }
      for note in search.notes { lines.append("- _Note:_ \(escape(note))") }
      lines.append("")
    }
    for block in result.blocks { lines.append("> **Blocked:** \(escape(block))") }
    lines.append("")
    lines.append("_\(summary(result))_")
    return lines.joined(separator: "\n") + "\n"
  }

  private static func escape(_ text: String) -> String {
    // Markdown's specials are ASCII: escape byte by byte.
    let specials = Array("\\`*_[]<>|".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 8)
    for byte in text.utf8 {
      if specials.contains(byte) { out.append(UInt8(ascii: "\\")) }
      out.append(byte)
    }
    return String(decoding: out, as: UTF8.self)
  }
}

/// The JSON report's shape, versioned.
struct JSONReport: Encodable {
  let schema = 1
  let time: Date
  let dryRun: Bool
  let summary: String
  let searches: [RunResult.SearchOutcome]
  let blocks: [String]
  let deliveryFailures: [String]

  init(_ result: RunResult) {
    time = result.time
    dryRun = result.dryRun
    summary = RunReport.summary(result)
    searches = result.searches
    blocks = result.blocks
    deliveryFailures = result.deliveryFailures
  }
}

/// ANSI colors, only when asked.
struct Paint {
  let enabled: Bool
  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func green(_ text: String) -> String { wrap(text, "32") }
  private func wrap(_ text: String, _ code: String) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
