public import ClarissaCore
internal import SiteFormat

/// Category codes: checking, listing with their meaning, and hints that say what each means.
extension CraigslistSite {
  public func checkCategory(_ name: String) -> NameCheck {
    if CraigslistTables.categoriesByCode[name] != nil || CraigslistTables.searchCodes[name] != nil {
      return .valid
    }
    let suggestions = Self.suggestCategories(for: name)
    // Craigslist has more search-only codes than any table lists: a three-letter code that is
    // not known is probably one of them, so it is sent anyway, with a warning.
    let looksLikeCode = name.count == 3 && name.allSatisfy { $0.isASCII && $0.isLowercase }
    guard looksLikeCode else { return .unknown(suggestions: suggestions) }
    return .doubtful(
      suggestions: suggestions,
      reason: "not in Craigslist's category table or the known search codes")
  }

  public func categoryMeaning(_ code: String) -> String? {
    if let aggregate = CraigslistTables.searchCodes[code] { return "all \(aggregate)" }
    return CraigslistTables.categoriesByCode[code]?.name
  }

  /// Search codes first (the ones a watcher usually wants), then posting categories; a word
  /// matches the code or any word of the meaning.
  public func knownCategories(matching filter: String?) -> [KnownCity] {
    let aggregates = CraigslistTables.searchCodes.keys.sorted()
    let postings = CraigslistTables.categories.map(\.abbreviation).sorted()
    let all = (aggregates + postings).compactMap { code in
      categoryMeaning(code).map { KnownCity(name: code, description: $0) }
    }
    guard let filter, !filter.isEmpty else { return all }
    let words = Self.searchWords(filter)
    return all.filter { entry in
      let meaning = Self.searchWords(entry.description)
      return entry.name == filter.lowercased()
        || words.allSatisfy { word in meaning.contains(where: word.matches) }
    }
  }

  /// Codes whose meaning holds the words typed (`bikes` -> bia, bik, bid: all bicycles, by
  /// owner, by dealer), then codes close in spelling; at most three.
  static func suggestCategories(for name: String) -> [String] {
    let site = CraigslistSite()
    let words = searchWords(name)
    // Fewest words beyond those typed first: 'all bicycles' and 'bicycles - by owner' before
    // 'all bicycle parts'.
    let extra = { (entry: KnownCity) -> Int in
      searchWords(entry.description).filter { meaningWord in
        !plain.contains(meaningWord.stem) && !words.contains { $0.matches(meaningWord) }
      }.count
    }
    let matches = name.count >= 3 ? site.knownCategories(matching: name) : []
    let byMeaning = matches.enumerated().sorted {
      (extra($0.element), $0.offset) < (extra($1.element), $1.offset)
    }
    .map(\.element.name)
    let codes = Array(CraigslistTables.searchCodes.keys) + CraigslistTables.categoriesByCode.keys
    let bySpelling = Suggestions.closest(to: name, in: codes)
    var seen = Set<String>()
    return (byMeaning + bySpelling).filter { seen.insert($0).inserted }.prefix(3).map { $0 }
  }

  /// Words of a category meaning or a search, singular, with the few everyday words that
  /// Craigslist's names spell otherwise (`bike` is listed as `bicycles`).
  static func searchWords(_ text: String) -> [SearchWord] {
    text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map {
      let singular = $0.count > 3 && $0.hasSuffix("s") ? String($0.dropLast()) : String($0)
      return SearchWord(stem: everyday[singular] ?? singular)
    }
  }

  /// Words of a meaning that do not make it a different thing.
  static let plain: Set<String> = ["all", "by", "owner", "dealer"]

  /// Everyday words and the word Craigslist's category names use for them.
  static let everyday: [String: String] = [
    "bike": "bicycle", "car": "cars", "truck": "trucks", "phone": "cell", "apartment": "apartment",
    "apt": "apartment", "flat": "apartment", "sofa": "furniture", "couch": "furniture",
    "laptop": "computer", "pc": "computer", "motorbike": "motorcycle", "rental": "rent",
    "room": "room", "job": "job", "tv": "electronic",
  ]

  /// One word of a search: matches a word of a meaning that starts with it.
  struct SearchWord: Sendable {
    let stem: String
    func matches(_ other: SearchWord) -> Bool { other.stem.hasPrefix(stem) }
  }
}

/// Craigslist's own filters narrow one section each: a housing filter on a for-sale category is
/// sent, and ignored.
extension CraigslistSite {
  public func caution(parameter: String, category: String?) -> String? {
    guard let category, let filter = CraigslistFilter.all.first(where: { $0.name == parameter }),
      let section = Self.section(of: category), section != filter.section
    else { return nil }
    let meaning = categoryMeaning(category).map { " (\($0))" } ?? ""
    return "'\(parameter)' narrows \(filter.section.rawValue) searches, and category "
      + "'\(category)'\(meaning) is \(section.rawValue): Craigslist ignores it"
  }

  /// The section a category code searches, when it is housing or for sale.
  static func section(of code: String) -> CraigslistFilter.Section? {
    switch code {
    case "hhh", "rea": return .housing
    case "sss": return .forSale
    case "jjj", "ggg", "bbb", "ccc", "eee", "rrr": return nil
    default: break
    }
    if let posting = CraigslistTables.categoriesByCode[code] {
      return posting.type == "H" ? .housing : posting.type == "S" ? .forSale : nil
    }
    // The other search codes pair a for-sale category's owners and dealers.
    return CraigslistTables.searchCodes[code] != nil ? .forSale : nil
  }
}
