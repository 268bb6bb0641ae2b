import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Testing

/// `clarissa star`, `unstar`, `hide`, `unhide` and `note` as a user runs them (the built
/// binary) on a store two replayed runs left; what `listings`, `show` and `state export` then
/// say of the marks.
@Suite(.serialized) struct MarkCommandsTests {
  static let later = ListingsCommandTests.later

  static func json(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
  }

  static func ids(_ objects: [[String: Any]]) -> [String] {
    objects.compactMap { ($0["listing"] as? [String: Any])?["id"] as? String }
  }

  @Test func starHideAndNoteAreSetSaidAndListed() throws {
    let config = try ListingsCommandTests.store()
    let base = ["--config", config, "--now", Self.later]
    let clarissa = { (arguments: [String]) in try StateCommandTests.clarissa(arguments + base) }

    let starred = try clarissa(["star", "7923790863", "craigslist:7923791266"])
    #expect(starred.status == 0, "\(starred.stderr)")
    #expect(
      starred.stdout == """
        starred: craigslist:7923790863  iPad Air 5th Gen with Apple Pencil
        starred: craigslist:7923791266  iPad Air 5th Gen with original Apple Pencil

        """)
    let again = try clarissa(["star", "7923790863"])
    #expect(again.stdout.hasPrefix("already starred: craigslist:7923790863"))

    let all = try Self.json(
      try clarissa(["listings", "--limit", "500", "--format", "json"]).stdout)
    let hidden = try clarissa(["hide", "7923791266"])
    #expect(hidden.stdout.hasPrefix("hidden: craigslist:7923791266"), "\(hidden.stderr)")
    let shown = try Self.json(
      try clarissa(["listings", "--limit", "500", "--format", "json"]).stdout)
    #expect(shown.count == all.count - 1)
    #expect(!Self.ids(shown).contains("7923791266"), "hidden listings are left out")
    let withHidden = try clarissa([
      "listings", "--limit", "500", "--with-hidden", "--format", "json",
    ])
    #expect(try Self.json(withHidden.stdout).count == all.count)
    let onlyHidden = try Self.json(
      try clarissa(["listings", "--hidden", "--format", "json"]).stdout)
    #expect(Self.ids(onlyHidden) == ["7923791266"])
    let marks = try #require(onlyHidden.first?["marks"] as? [String: Any])
    #expect(marks["hiddenAt"] as? String == "2026-05-03T22:00:00Z")
    #expect(marks["starredAt"] as? String == "2026-05-03T22:00:00Z")
    let starredList = try Self.json(
      try clarissa(["listings", "--starred", "--format", "json"]).stdout)
    #expect(Set(Self.ids(starredList)) == ["7923790863", "7923791266"])

    let noted = try clarissa(["note", "7923790863", "call \u{7}after 6\nask for the box"])
    #expect(
      noted.stdout == """
        noted: craigslist:7923790863  iPad Air 5th Gen with Apple Pencil
          call after 6
          ask for the box

        """)
    let show = try clarissa(["show", "7923790863"])
    #expect(
      show.stdout.contains("\n  starred 22:00\n  note (22:00): call after 6\n    ask for the box\n")
    )
    let text = try clarissa(["listings", "--starred"])
    #expect(text.stdout.contains("\n    starred · note: call after 6\n"), "\(text.stdout)")
    let showHidden = try clarissa(["show", "7923791266", "--format", "json"])
    #expect(showHidden.stdout.contains(#""hiddenAt" : "2026-05-03T22:00:00Z""#))
    if ListingsCommandTests.canValidate {
      #expect(try ListingsCommandTests.accepts(showHidden.stdout, schema: "show.schema.json"))
      #expect(try ListingsCommandTests.accepts(withHidden.stdout, schema: "listings.schema.json"))
    }

    // The export carries them.
    let export = try StateCommandTests.clarissa(["state", "export", "--config", config])
    #expect(export.stdout.contains("{\"type\":\"mark\",\"id\":\"7923790863\",\"note\":"))

    #expect(try clarissa(["note", "7923790863", "--clear"]).stdout.hasPrefix("note removed: "))
    #expect(try clarissa(["note", "7923790863", ""]).stdout.hasPrefix("no note: "))
    #expect(
      try clarissa(["unhide", "7923791266"]).stdout.hasPrefix("shown: craigslist:7923791266"))
    #expect(try clarissa(["unstar", "7923791266"]).stdout.hasPrefix("not starred: "))
    #expect(try Self.json(clarissa(["listings", "--hidden", "--format", "json"]).stdout).isEmpty)
  }

  @Test func aWrongIdChangesNothingAndAnAmbiguousOneNamesTheSites() throws {
    let config = try ListingsCommandTests.store()
    let base = ["--config", config, "--now", Self.later]
    let clarissa = { (arguments: [String]) in try StateCommandTests.clarissa(arguments + base) }
    let unknown = try clarissa(["star", "7923790863", "12345"])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("the state database has no listing '12345'"))
    #expect(try Self.json(clarissa(["listings", "--starred", "--format", "json"]).stdout).isEmpty)

    // The same id on a second site.
    let folder = (config as NSString).deletingLastPathComponent
    do {
      let store = try ListingStore.open(
        path: (folder as NSString).appendingPathComponent("clarissa.db"), readOnly: false)
      try store.record(
        SearchRecord(
          search: "flats", now: Date(timeIntervalSince1970: 1_777_838_400),
          seen: [
            Listing(
              id: "7923790863", site: "flatfox", url: "https://flatfox.ch/x", title: "Flat",
              description: "", price: 1000, currency: "CHF")
          ], reached: true))
    }
    let ambiguous = try clarissa(["hide", "7923790863"])
    #expect(ambiguous.status == 64)
    #expect(
      ambiguous.stderr.contains(
        "'7923790863' is an id on several sites (craigslist, flatfox); write SITE:ID"))
    let picked = try clarissa(["hide", "flatfox:7923790863"])
    #expect(picked.stdout == "hidden: flatfox:7923790863  Flat\n", "\(picked.stderr)")

    let usage = try clarissa(["note", "7923790863"])
    #expect(usage.status == 64)
    #expect(usage.stderr.contains("give the note's text (quoted), or --clear"))
    let help = try StateCommandTests.clarissa(["hide", "--help"])
    #expect(help.stdout.contains("never show or announce them again"))
    #expect(help.stdout.contains("clarissa listings --hidden"))
  }
}
