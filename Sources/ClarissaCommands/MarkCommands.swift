internal import ArgumentParser
internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// The listing an id names, as `show`, `star`, `hide` and `note` take it.
enum ListingIDs {
  /// `id` (an id, or `SITE:ID`) as one listing of the store; an id the store does not have
  /// exits 1, one that several sites use exits 64 naming them.
  static func key(_ id: String, in store: any BrowsableStore) throws -> ListingKey {
    let keys = try store.keys(matching: id)
    guard keys.count <= 1 else {
      Terminal.error(
        "error: '\(id)' is an id on several sites (\(keys.map(\.site).joined(separator: ", "))); "
          + "write SITE:ID, as in '\(keys[0].site):\(keys[0].id)'\n")
      throw ExitStatus.usage.exitCode
    }
    guard let key = keys.first else {
      Terminal.error("error: the state database has no listing '\(id)'\n")
      throw ExitStatus.failure.exitCode
    }
    return key
  }

  /// `SITE:ID  title`, as the mark commands name what they changed.
  static func named(_ key: ListingKey, in store: any BrowsableStore) throws -> String {
    let title = try store.history(key).map { "  " + SafeText.line($0.listing.title) } ?? ""
    return "\(SafeText.line(key.site)):\(SafeText.line(key.id))\(title)"
  }
}

/// The listings a mark command changes, and the store they are in.
struct MarkTargets: ParsableArguments {
  @Argument(help: ArgumentHelp("Listing ids, or SITE:ID.", valueName: "id")) var ids: [String]
  @OptionGroup var options: StateOptions
}

/// What `star`, `unstar`, `hide` and `unhide` share: the ids, the store, and what is printed.
protocol MarkingCommand: ParsableCommand {
  var targets: MarkTargets { get }
  /// The change.
  static var mark: ListingMark { get }
  /// The listing's state after it: `starred`, `not starred`, ...
  static var state: String { get }
}

extension MarkingCommand {
  /// Every id resolved first (nothing changes when one is wrong), then each listing marked;
  /// prints one line per listing: changed, or already so.
  func run() throws {
    let options = targets.options
    let now = options.clock
    let lines = try options.writing { store, _ -> [String] in
      let keys = try targets.ids.map { try ListingIDs.key($0, in: store) }
      var lines: [String] = []
      for key in keys {
        let changed = try store.setMark(Self.mark, on: [key], at: now) > 0
        lines.append(
          (changed ? "\(Self.state): " : "already \(Self.state): ")
            + (try ListingIDs.named(key, in: store)))
      }
      return lines
    }
    guard let lines else { throw ExitStatus.failure.exitCode }
    print(lines.joined(separator: "\n"))
  }

  /// The command's help: what it does, what every mark command says of ids, its examples.
  static func markConfiguration(
    _ name: String, abstract: String, about: String = "", examples: String
  ) -> CommandConfiguration {
    CommandConfiguration(
      commandName: name, abstract: abstract,
      discussion: (about.isEmpty ? "" : about + "\n\n") + markHelp + "\n\nExamples:\n" + examples)
  }
}

/// The help every mark command ends with.
let markHelp = """
  ID is the listing's id, or SITE:ID when two sites use the same id (as 'clarissa listings' \
  and 'clarissa show' print them); several may be given, and none is changed when one is \
  unknown. Marks live in the state database (exported by 'clarissa state export'); 'clarissa \
  show ID' says them, 'clarissa listings --starred' and '--hidden' list them. The runs' lock \
  is waited for up to 5 s.
  """

/// `clarissa star ID...`.
struct StarCommand: MarkingCommand {
  static let configuration = markConfiguration(
    "star", abstract: "Star listings: watch them (their changes are announced, their story kept).",
    about: """
      A starred listing's price changes, its going and coming back, its reposts and text \
      changes are announced whatever its search's notify_on, and 'state prune' keeps its \
      story. Starring again keeps the first time. 'clarissa unstar ID' undoes it.
      """,
    examples: """
        clarissa star 7931742798
        clarissa star craigslist:7931742798 flatfox:1234
      """)
  static let mark = ListingMark.star
  static let state = "starred"
  @OptionGroup var targets: MarkTargets
}

/// `clarissa unstar ID...`.
struct UnstarCommand: MarkingCommand {
  static let configuration = markConfiguration(
    "unstar", abstract: "Stop watching starred listings.",
    examples: "  clarissa unstar 7931742798")
  static let mark = ListingMark.unstar
  static let state = "not starred"
  @OptionGroup var targets: MarkTargets
}

/// `clarissa hide ID...`.
struct HideCommand: MarkingCommand {
  static let configuration = markConfiguration(
    "hide", abstract: "Hide listings: never show or announce them again, reposts included.",
    about: """
      A hidden listing is left out of 'clarissa listings', the web pages, the map and the \
      Atom feeds, and is never announced again (nor its reposts). 'clarissa listings \
      --hidden' lists them; 'clarissa unhide ID' shows one again.
      """,
    examples: """
        clarissa hide 7931742798
        clarissa listings --hidden
      """)
  static let mark = ListingMark.hide
  static let state = "hidden"
  @OptionGroup var targets: MarkTargets
}

/// `clarissa unhide ID...`.
struct UnhideCommand: MarkingCommand {
  static let configuration = markConfiguration(
    "unhide", abstract: "Show hidden listings again.", examples: "  clarissa unhide 7931742798")
  static let mark = ListingMark.unhide
  static let state = "shown"
  @OptionGroup var targets: MarkTargets
}

/// `clarissa note ID TEXT` and `clarissa note ID --clear`.
struct NoteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "note",
    abstract: "Write a note on a listing (or remove it with --clear).",
    discussion: """
      The note replaces the listing's earlier one; empty text or --clear removes it. Control \
      characters are dropped (line breaks kept), white space at the ends trimmed, and at most \
      \(ListingMarks.noteLimit) characters kept. It is shown by 'clarissa show', on the web \
      page, and in the alerts of a starred listing.

      \(markHelp)

      Examples:
        clarissa note 7931742798 "called: viewing Saturday 10:00"
        clarissa note 7931742798 --clear
      """)

  @Argument(help: ArgumentHelp("The listing's id, or SITE:ID.", valueName: "id")) var id: String
  @Argument(help: ArgumentHelp("The note (quote it).", valueName: "text")) var text: String?
  @Flag(help: "Remove the note.") var clear = false
  @OptionGroup var options: StateOptions

  func validate() throws {
    if clear && text != nil { throw ValidationError("give the note's text or --clear, not both") }
    if !clear && text == nil {
      throw ValidationError("give the note's text (quoted), or --clear to remove the note")
    }
  }

  func run() throws {
    let now = options.clock
    let note = clear ? nil : ListingMarks.cleanNote(text)
    let line = try options.writing { store, _ -> String in
      let key = try ListingIDs.key(id, in: store)
      let changed = try store.setMark(.note(note), on: [key], at: now) > 0
      let named = try ListingIDs.named(key, in: store)
      guard let note else { return changed ? "note removed: \(named)" : "no note: \(named)" }
      return (changed ? "noted: " : "already noted: ") + named + "\n  "
        + SafeText.lines(note).replacingOccurrences(of: "\n", with: "\n  ")
    }
    guard let line else { throw ExitStatus.failure.exitCode }
    print(line)
  }
}
