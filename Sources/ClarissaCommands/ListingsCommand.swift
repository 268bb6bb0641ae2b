internal import ArgumentParser
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

/// `clarissa listings`: what the searches have found, for people and for scripts.
struct ListingsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "listings",
    abstract: "List what the searches have found, newest first.",
    discussion: """
      Reads the state database (without the lock: it never waits for a run) and prints the \
      listings the searches have seen, newest first: when each was first seen, the search, the \
      price, the title, the place and the link; `repost of ID` for a repost folded into another. \
      The JSON form (one object per listing, with the whole listing, firstSeen, lastSeen, event, \
      repostOf, deliveredTo) is documented in docs/listings.md; CSV has a header row. \
      'clarissa show ID' tells one listing's whole story.

      Events the store knows: new, repost. --unviewed keeps the listings nobody has viewed \
      (opened in 'clarissa serve', or marked with --mark-viewed); the JSON form has viewedAt.

      Hidden listings ('clarissa hide ID') are left out unless --hidden (only them, the latest \
      hidden first) or --with-hidden asks for them; --starred lists the starred ('clarissa \
      star ID'), the latest starred first. A marked listing has a line with its marks; the \
      JSON form has marks (starredAt, hiddenAt, note, notedAt).

      Examples:
        clarissa listings
        clarissa listings --search ipads --since 2d
        clarissa listings --event repost --format json
        clarissa listings --text "air m2" --max-price 500 --format csv > ipads.csv
        clarissa listings --unviewed --mark-viewed   # what is new to you, then marked seen
        clarissa listings --starred
      """
  )

  @OptionGroup var options: StateOptions

  @Option(
    name: .customLong("search"),
    help: ArgumentHelp("Only this search (repeatable).", valueName: "name"))
  var searches: [String] = []

  @Option(
    help: ArgumentHelp(
      "Only listings first seen this long ago or less (2d, 6h).", valueName: "duration"))
  var since: String?

  @Option(help: ArgumentHelp("Only this event: new or repost.", valueName: "event"))
  var event: String?

  @Option(help: ArgumentHelp("Lowest price.", valueName: "amount"))
  var minPrice: Double?

  @Option(help: ArgumentHelp("Highest price.", valueName: "amount"))
  var maxPrice: Double?

  @Option(
    help: ArgumentHelp(
      "Words that must all appear in the title or description.", valueName: "words"))
  var text: String?

  @Flag(help: "Only listings nobody has viewed yet.")
  var unviewed = false

  @Flag(help: "Mark the listings printed as viewed (as opening them in 'clarissa serve' does).")
  var markViewed = false

  @Flag(help: "Only starred listings ('clarissa star'), the latest starred first.")
  var starred = false

  @Flag(help: "Only hidden listings ('clarissa hide'), the latest hidden first.")
  var hidden = false

  @Flag(help: "Hidden listings too (they are left out by default).")
  var withHidden = false

  @Option(help: "At most this many.")
  var limit = 50

  @Option(help: "Output: text, json or csv.")
  var format: Format = .text

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, csv }

  func validate() throws {
    if let since, Interval(parsing: since) == nil {
      throw ValidationError("--since takes a duration such as 2d, 6h or 30m, found '\(since)'")
    }
    if let event, !["new", "repost"].contains(event) {
      throw ValidationError(
        "unknown event '\(event)'" + Suggestions.hint(for: event, in: ["new", "repost"])
          + " (the store knows: new, repost)")
    }
    guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    if [starred, hidden, withHidden].filter({ $0 }).count > 1 {
      throw ValidationError("choose one of --starred, --hidden and --with-hidden")
    }
  }

  func run() throws {
    let now = options.clock
    var query = ListingQuery()
    query.searches = searches
    query.since = since.flatMap(Interval.init(parsing:)).map {
      now.addingTimeInterval(-$0.timeInterval)
    }
    query.events = event.map { [$0] } ?? []
    query.minPrice = minPrice
    query.maxPrice = maxPrice
    query.words = (text ?? "").split(separator: " ").map(String.init)
    query.limit = limit
    query.unviewed = unviewed
    query.marked = starred ? .starred : hidden ? .hidden : withHidden ? .any : .notHidden
    let config = options.configured()
    let read = { (store: ListingStore) throws -> [FoundListing] in
      try checkSearches(store)
      var found = try store.listings(query)
      try StoredCommute.attach(&found, config: config, memory: store)
      guard format == .json else { return found }
      let others = try store.alsoOn(found.map(\.listing.key))
      for index in found.indices { found[index].alsoOn = others[found[index].listing.key] }
      return found
    }
    let result =
      markViewed
      ? try options.writing { store, _ in
        let found = try read(store)
        let marked = try store.markViewed(found.map(\.listing.key), at: now)
        Terminal.error("marked \(marked) listing\(marked == 1 ? "" : "s") viewed\n")
        return found
      }
      : try options.reading(quiet: format != .text) { store, _ in try read(store) }
    guard let found = result else {
      if format == .json { print("[]") } else if format == .csv { print(ListingsOutput.csvHeader) }
      return
    }
    switch format {
    case .text:
      print(
        ListingsOutput.text(found, now: now, searches: config?.searchesByName ?? [:]),
        terminator: ""
      )
    case .json: print(ListingsOutput.json(found))
    case .csv: print(ListingsOutput.csv(found), terminator: "")
    }
  }

  /// An unknown `--search` is a usage error with "did you mean".
  private func checkSearches(_ store: ListingStore) throws {
    let known = try store.searchNames()
    for name in searches where !known.contains(name) {
      Terminal.error(
        "error: no search named '\(name)' in the state database"
          + Suggestions.hint(for: name, in: known) + "\n")
      throw ExitStatus.usage.exitCode
    }
  }
}
