internal import ClarissaCore
internal import YAML

/// The key that says what a search does with warning signs (issue 43).
extension SearchKey {
  static let signals: [SearchKey] = [
    SearchKey(
      "signals", schema: { _ in signalsSchema },
      hover:
        "warning signs: {drop: [low-price, scam-words]} filters listings with those signs "
        + "(default: none, every sign is shown and nothing hidden); {words: [\"...\"]} adds "
        + "scam phrases to the shipped lists",
      doc: Doc(
        "`{drop, words}`", "`{drop: [], words: []}`",
        "warning signs (`photo-elsewhere`, `low-price`, `reposted`, `scam-words`, "
          + "`new-seller`) are shown on new listings, each in one line; `drop` filters listings "
          + "with a sign of those kinds (the sign is the reason `explain` gives), `words` adds "
          + "phrases to the shipped scam words (see below); a search's own `signals` replaces "
          + "`defaults`'"),
      synonyms: ["warnings", "warning_signs"],
      read: .field { reader, field, draft in
        draft.search.signals = reader.readSignals(field) ?? draft.search.signals
      })
  ]

  /// `signals`: `{drop: [kinds], words: [phrases]}`.
  private static var signalsSchema: [String: Any] {
    [
      "type": "object",
      "properties": [
        "drop": [
          "type": "array", "items": ["enum": ListingSignal.Kind.allCases.map(\.rawValue)],
          "description": "the kinds of warning sign that filter a listing",
        ] as [String: Any],
        "words": [
          "type": "array", "items": ["type": "string"],
          "description": "phrases added to the shipped scam words, matched as whole words",
        ] as [String: Any],
      ],
      "additionalProperties": false,
    ]
  }
}

extension ConfigReader {
  /// `signals: {drop: [low-price], words: ["..."]}`: an unknown kind is an error with a
  /// did-you-mean; a phrase of fewer than three letters or digits is an error (it would match
  /// too much).
  func readSignals(_ field: Field) -> SignalSettings? {
    guard let table = table(field.node, field.what) else { return nil }
    checkKeys(table, allowed: ["drop", "words"], in: field.what)
    var settings = SignalSettings()
    let kinds = ListingSignal.Kind.allCases.map(\.rawValue)
    if let node = table["drop"], !node.isNull {
      for (_, item) in stringList(node, "'\(field.key).drop' in \(field.origin)") {
        if let word = word(item, "'\(field.key).drop' in \(field.origin)", among: kinds),
          let kind = ListingSignal.Kind(rawValue: word)
        {
          settings.drop.insert(kind)
        }
      }
    }
    if let node = table["words"], !node.isNull {
      for (phrase, item) in stringList(node, "'\(field.key).words' in \(field.origin)") {
        let letters = phrase.filter { $0.isLetter || $0.isNumber }.count
        guard letters >= 3 else {
          error(
            "'\(phrase)' in '\(field.key).words' in \(field.origin) is too short to name a scam "
              + "(at least three letters or digits)", at: item)
          continue
        }
        settings.words.append(phrase)
      }
    }
    return settings
  }
}
