import ClarissaConfig
import Testing

/// Given searches.yaml in each shape the reader accepts (block and flow items, a flow list,
/// `<<` merges, comments, block scalars, an empty list), when one search is changed, then the
/// writer gives exactly the text a person would have written, and nothing else moves.
@Suite struct SearchWriterTests {
  static func apply(_ change: SearchChange, _ text: String) throws -> String {
    try SearchWriter.apply(change, to: text)
  }

  @Test func aChangedKeyIsRewrittenInPlaceAndTheOthersKeepTheirComments() throws {
    let text = """
      searches:
        - name: a              # the first
          query: desk          # old words
          # the price, in dollars
          price: {max: 400}
          cities: [sfbay]
        - name: b
          cities: [sfbay]

      """
    let edited = try Self.apply(
      .edit(name: "a", set: [EditPair("query", .text("desk # walnut: yes "))], remove: ["price"]),
      text)
    #expect(
      edited == """
        searches:
          - name: a              # the first
            query: 'desk # walnut: yes '
            cities: [sfbay]
          - name: b
            cities: [sfbay]

        """)
  }

  @Test func aNewKeyGoesAtTheSearchsEndInBlockStyle() throws {
    let text =
      "searches:\n  - name: a\n    cities: [sfbay]\n    # notify: [phone]\nnotify:\n  phone: stdout\n"
    let edited = try Self.apply(
      .edit(
        name: "a",
        set: [
          EditPair(
            "filters",
            .list([.map([EditPair("exclude", .text("*broken")), EditPair("on", .plain("title"))])]))
        ], remove: []), text)
    #expect(
      edited
        == "searches:\n  - name: a\n    cities: [sfbay]\n    filters:\n      - exclude: '*broken'\n        on: title\n    # notify: [phone]\nnotify:\n  phone: stdout\n"
    )
  }

  @Test func theFirstKeyRemovedHandsItsDashToTheNext() throws {
    let text = "searches:\n  - query: x\n    name: a\n    cities: [sfbay]\n"
    let edited = try Self.apply(.edit(name: "a", set: [], remove: ["query"]), text)
    #expect(edited == "searches:\n  - name: a\n    cities: [sfbay]\n")
  }

  @Test func aFlowItemIsRewrittenAsOneFlowNodeKeepingItsOtherValuesAsWritten() throws {
    let text = "searches:\n  - {name: a, query: \"old\", cities: [ sfbay ]}   # kept\n"
    let edited = try Self.apply(
      .edit(
        name: "a", set: [EditPair("query", .text("a, b")), EditPair("interval", .plain("1h"))],
        remove: []), text)
    #expect(
      edited
        == "searches:\n  - {name: a, query: 'a, b', cities: [ sfbay ], interval: 1h}   # kept\n")
  }

  @Test func aFlowListTakesAddAndDelete() throws {
    let text = "searches: [{name: a, cities: [sfbay]}, {name: b, cities: [sfbay]}]\n"
    let added = try Self.apply(
      .add([EditPair("name", .text("c")), EditPair("cities", .list([.text("sfbay")]))]), text)
    #expect(
      added
        == "searches: [{name: a, cities: [sfbay]}, {name: b, cities: [sfbay]}, {name: c, cities: [sfbay]}]\n"
    )
    let deleted = try Self.apply(.delete(name: "a"), added)
    #expect(deleted == "searches: [{name: b, cities: [sfbay]}, {name: c, cities: [sfbay]}]\n")
    #expect(
      try Self.apply(.delete(name: "c"), deleted) == "searches: [{name: b, cities: [sfbay]}]\n")
  }

  @Test func aMergedKeyIsOverriddenInTheSearchAndNeverRemovedFromItsAnchor() throws {
    let text = """
      x-base: &base
        cities: [sfbay]
        interval: 45m
      searches:
        - <<: *base
          name: chairs
        - <<: *base
          name: desks

      """
    let edited = try Self.apply(
      .edit(name: "chairs", set: [EditPair("interval", .plain("2h"))], remove: []), text)
    #expect(
      edited == """
        x-base: &base
          cities: [sfbay]
          interval: 45m
        searches:
          - <<: *base
            name: chairs
            interval: 2h
          - <<: *base
            name: desks

        """)
    #expect(throws: SearchEditProblem.self) {
      try Self.apply(.edit(name: "desks", set: [], remove: ["cities"]), text)
    }
  }

  @Test func aBlockScalarIsReplacedWhole() throws {
    let text = "searches:\n  - name: a\n    query: |\n      two\n      lines\n    cities: [sfbay]\n"
    let edited = try Self.apply(
      .edit(name: "a", set: [EditPair("query", .text("one"))], remove: []), text)
    #expect(edited == "searches:\n  - name: a\n    query: one\n    cities: [sfbay]\n")
  }

  @Test func aDeletedSearchTakesItsCommentsAndOneBlankLine() throws {
    let text = """
      searches:
        - name: a
          cities: [sfbay]

        # the second
        - name: b
          cities: [sfbay]

        - name: c
          cities: [sfbay]
      notify: {}

      """
    #expect(
      try Self.apply(.delete(name: "b"), text) == """
        searches:
          - name: a
            cities: [sfbay]

          - name: c
            cities: [sfbay]
        notify: {}

        """)
  }

  @Test func anEmptyListGetsItsFirstSearch() throws {
    for empty in ["searches: []\n", "searches:\n"] {
      let added = try Self.apply(
        .add([EditPair("name", .text("yes")), EditPair("cities", .list([.text("sfbay")]))]), empty)
      #expect(added == "searches:\n  - name: 'yes'\n    cities: [sfbay]\n", "\(empty)")
    }
  }

  @Test func textsYAMLWouldMisreadAreQuoted() throws {
    let cases: [(String, String)] = [
      ("plain words", "plain words"), ("yes", "'yes'"), ("123", "'123'"), ("null", "'null'"),
      ("#tag", "'#tag'"), ("a: b", "'a: b'"), ("a #b", "'a #b'"), ("it's", "it's"),
      ("'q'", "'''q'''"), ("tail ", "'tail '"), ("two\nlines", "\"two\\nlines\""),
      ("@at", "'@at'"), ("%pct", "'%pct'"), ("!bang", "'!bang'"), ("|pipe", "'|pipe'"),
      (">gt", "'>gt'"), ("&amp", "'&amp'"), ("*star", "'*star'"), ("-dash", "'-dash'"),
    ]
    for (text, written) in cases {
      let edited = try Self.apply(
        .edit(name: "a", set: [EditPair("query", .text(text))], remove: []),
        "searches:\n  - name: a\n    query: x\n")
      #expect(edited == "searches:\n  - name: a\n    query: \(written)\n", "\(text)")
      #expect(SearchValues.all(in: edited)?.first?.value("query")?.means(.text(text)) == true)
    }
  }

  @Test func aSearchThatIsNotThereOrANameTakenIsRefused() {
    let text = "searches:\n  - name: a\n  - name: b\n"
    #expect(throws: SearchEditProblem.self) { try Self.apply(.delete(name: "c"), text) }
    #expect(throws: SearchEditProblem.self) {
      try Self.apply(.edit(name: "a", set: [EditPair("name", .text("b"))], remove: []), text)
    }
    #expect(throws: SearchEditProblem.self) {
      try Self.apply(.add([EditPair("name", .text("a"))]), text)
    }
    #expect(throws: SearchEditProblem.self) { try Self.apply(.add([]), "searches: [\n") }
  }
}
