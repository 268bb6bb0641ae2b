internal import Foundation
internal import ListingStore

/// The phrases that scam reports name, a short list per language (issue 43: "around 40-50% of
/// the notifications I receive turn out to be fraudulent ads"). Each names the scam's own move
/// (money sent by a transfer service that cannot be recalled, a deposit or rent paid before
/// seeing the flat, an owner who is abroad and posts the keys, a booking platform's payment
/// outside the platform), never a word an honest ad needs (`deposit`, `Kaution`, `caution`
/// alone are not in it). A search adds its own (`signals: {words: [...]}`).
///
/// Matched on the folded title and description (lower case, no diacritics, every run of
/// spaces and punctuation one space) as whole words: `je suis à l'étranger` matches
/// "Je suis a l'etranger" and not "étrangères".
public enum ScamWords {
  /// One phrase: as written in the list, and folded for matching (with a space either side).
  public struct Phrase: Sendable, Equatable {
    /// As written.
    public let written: String
    /// Folded, with a space either side.
    public let folded: String

    init(_ written: String) {
      self.written = written
      self.folded = ScamWords.folded(written)
    }
  }

  /// The shipped phrases by language (ISO 639-1; `any` for names every language writes alike).
  public static let shipped: [String: [String]] = [
    "any": ["western union", "moneygram", "money gram", "ria money transfer"],
    "en": [
      "deposit before viewing", "pay before viewing", "payment before viewing",
      "i am abroad", "i am currently abroad", "i am out of the country", "i live abroad",
      "keys by post", "keys by mail", "send you the keys", "payment through airbnb",
      "via airbnb",
    ],
    "de": [
      "kaution vorab", "kaution im voraus", "miete vorab überweisen", "schlüssel per post",
      "schlüssel per dhl", "schlüsselübergabe per post", "ich bin im ausland",
      "ich lebe im ausland", "ich wohne im ausland", "zurzeit im ausland",
      "überweisung vor besichtigung", "über airbnb bezahlen",
    ],
    "fr": [
      "je suis à l'étranger", "je suis actuellement à l'étranger", "je vis à l'étranger",
      "clés par la poste", "clés par courrier", "caution avant la visite",
      "paiement avant la visite", "dépôt avant la visite", "mandat cash", "via airbnb",
    ],
    "es": [
      "estoy en el extranjero", "vivo en el extranjero", "llaves por correo",
      "llaves por mensajería", "fianza por adelantado", "pago antes de la visita",
      "depósito antes de ver", "a través de airbnb",
    ],
    "it": [
      "sono all'estero", "vivo all'estero", "chiavi per posta", "chiavi tramite corriere",
      "caparra prima della visita", "pagamento prima della visita", "deposito anticipato",
      "tramite airbnb",
    ],
    "nl": [
      "ik woon in het buitenland", "ik ben in het buitenland", "ik zit in het buitenland",
      "sleutels per post", "sleutel per post", "borg vooraf overmaken",
      "betaling voor bezichtiging", "via airbnb betalen",
    ],
    "pl": [
      "jestem za granicą", "mieszkam za granicą", "przebywam za granicą", "klucze pocztą",
      "klucze kurierem", "wysyłka kluczy", "przelew przed obejrzeniem",
      "zaliczka przed obejrzeniem", "kaucja przed obejrzeniem",
    ],
  ]

  /// The shipped phrases, every language's, folded once.
  static let all: [Phrase] = shipped.keys.sorted().flatMap { shipped[$0] ?? [] }.map(Phrase.init)

  /// The shipped phrases and `extra` (a search's own), each once.
  public static func phrases(adding extra: [String]) -> [Phrase] {
    let added = extra.map(Phrase.init).filter { $0.folded.count > 2 }
    return all + added.filter { phrase in !all.contains { $0.folded == phrase.folded } }
  }

  /// Lower case, no diacritics, every run of what is not a letter or digit one space
  /// (``Fingerprint/title(_:)`` on the text without its diacritics), and a space either side: `"Kaution  VORAB!"` is `" kaution vorab "`.
  public static func folded(_ text: String) -> String {
    let plain = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    return " " + Fingerprint.title(plain) + " "
  }
}
