package import ClarissaCore
internal import Foundation

/// A template over a search's values: `{query}`, `{city.code}`, `{price.min}`, a parameter
/// (`{radius}`), what an earlier request collected (`{pins.pk}`), each with filters
/// (`{query|slug}`); a part in `(( ))` is left out when every search value in it is empty, or
/// when a city's or category's column in it is empty. A `{` not followed by a name is text, so
/// JSON bodies need no escaping.
package struct URLTemplate: Sendable {
  /// A piece of the template.
  package indirect enum Part: Sendable {
    case text(String)
    case variable(name: String, filters: [Filter])
    case optional([Part])
  }

  /// What a variable's value goes through, in order.
  package enum Filter: String, Sendable, CaseIterable {
    /// Lower case, letters and digits, words joined by `-` (`Zürich Altstadt` -> `zurich-altstadt`).
    case slug
    case lower, upper
    /// Spaces as `+` (old-style query strings in paths).
    case plus
    /// Escaped as a JSON string's content.
    case json
    /// Inserted as it is, not percent-encoded (a URL or path the site gives).
    case raw
  }

  package let text: String
  package let parts: [Part]
  package let location: SourceLocation

  /// Every variable name, for checking.
  package var names: [String] { Self.names(in: parts) }

  /// Parses `text`; a malformed template gives a message and the offset (0-based characters).
  package static func parse(_ text: String, at location: SourceLocation) throws(TemplateError)
    -> URLTemplate
  {
    var parser = TemplateParser(Array(text))
    let parts = try parser.parts(closing: false)
    return URLTemplate(text: text, parts: parts, location: location)
  }

  /// The text with `values` put in; `encode` percent-encodes each value for a URL path.
  package func render(_ values: TemplateValues, encode: Bool) -> String {
    Self.render(parts, values, encode: encode) ?? ""
  }

  private static func render(_ parts: [Part], _ values: TemplateValues, encode: Bool) -> String? {
    var out = ""
    for part in parts {
      switch part {
      case .text(let text): out += text
      case .variable(let name, let filters):
        out += value(values.first(name) ?? "", filters: filters, encode: encode)
      case .optional(let inner):
        let used = names(in: inner)
        let empty = { (name: String) in (values.first(name) ?? "").isEmpty }
        // The table's columns say whether the part applies (a category without the column
        // has no such filter); the search's values whether it is wanted.
        let columns = used.filter(Self.isTableColumn)
        if columns.contains(where: empty) { continue }
        let searchValues = used.filter { !Self.isTableColumn($0) }
        if searchValues.allSatisfy(empty) { continue }
        out += render(inner, values, encode: encode) ?? ""
      }
    }
    return out
  }

  /// Each value of a template that is one list variable (a query parameter repeated per value),
  /// else the one rendering.
  package func renderAll(_ values: TemplateValues) -> [String] {
    if parts.count == 1, case .variable(let name, let filters) = parts[0],
      let list = values.lists[name]
    {
      return list.map { Self.value($0, filters: filters, encode: false) }
    }
    return [render(values, encode: false)]
  }

  package static func value(_ raw: String, filters: [Filter], encode: Bool) -> String {
    var text = raw
    for filter in filters {
      switch filter {
      case .slug: text = slug(text)
      case .lower: text = text.lowercased()
      case .upper: text = text.uppercased()
      case .plus: text = text.replacingOccurrences(of: " ", with: "+")
      case .json: text = JSONString.escaped(text)
      case .raw: return text
      }
    }
    guard encode else { return text }
    return text.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? text
  }

  private static let pathAllowed: CharacterSet = {
    var set = CharacterSet.urlPathAllowed
    set.remove(charactersIn: "/?#")
    set.insert("+")
    return set
  }()

  /// Whether `name` is a column of the cities' or categories' table (`{city.code}`), not one of
  /// the search's values.
  static func isTableColumn(_ name: String) -> Bool {
    name.hasPrefix("city.") || name.hasPrefix("category.")
  }

  package static func slug(_ text: String) -> String {
    let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
      .replacingOccurrences(of: "ß", with: "ss")
    var words: [String] = []
    var word = ""
    for character in folded {
      if character.isASCII, character.isLetter || character.isNumber {
        word.append(character)
      } else if !word.isEmpty {
        words.append(word)
        word = ""
      }
    }
    if !word.isEmpty { words.append(word) }
    return words.joined(separator: "-")
  }

  private static func names(in parts: [Part]) -> [String] {
    parts.flatMap { part -> [String] in
      switch part {
      case .text: []
      case .variable(let name, _): [name]
      case .optional(let inner): names(in: inner)
      }
    }
  }
}

/// The values a template is filled with: one text each, or a list (what a step collected).
package struct TemplateValues: Sendable {
  package var texts: [String: String] = [:]
  package var lists: [String: [String]] = [:]

  package func first(_ name: String) -> String? {
    texts[name] ?? lists[name]?.first
  }
}

/// Why a template does not parse.
package struct TemplateError: Error, Equatable {
  package var message: String
  package var offset: Int
}

/// Reads a template's characters into parts.
private struct TemplateParser {
  package let characters: [Character]
  package var index = 0

  package init(_ characters: [Character]) { self.characters = characters }

  package mutating func parts(closing: Bool) throws(TemplateError) -> [URLTemplate.Part] {
    var parts: [URLTemplate.Part] = []
    var text = ""
    let start = index
    while index < characters.count {
      if closing, lookingAt("))") {
        index += 2
        if !text.isEmpty { parts.append(.text(text)) }
        return parts
      }
      if lookingAt("((") {
        if !text.isEmpty { parts.append(.text(text)) }
        text = ""
        index += 2
        parts.append(.optional(try self.parts(closing: true)))
      } else if characters[index] == "{", index + 1 < characters.count,
        characters[index + 1].isLetter || characters[index + 1] == "_"
      {
        if !text.isEmpty { parts.append(.text(text)) }
        text = ""
        parts.append(try variable())
      } else {
        text.append(characters[index])
        index += 1
      }
    }
    if closing {
      throw TemplateError(message: "'((' is never closed by '))'", offset: max(0, start - 2))
    }
    if !text.isEmpty { parts.append(.text(text)) }
    return parts
  }

  private func lookingAt(_ text: String) -> Bool {
    let wanted = Array(text)
    guard index + wanted.count <= characters.count else { return false }
    return Array(characters[index..<index + wanted.count]) == wanted
  }

  private mutating func variable() throws(TemplateError) -> URLTemplate.Part {
    let open = index
    index += 1
    var body = ""
    while index < characters.count, characters[index] != "}" {
      body.append(characters[index])
      index += 1
    }
    guard index < characters.count else {
      throw TemplateError(message: "'{' is never closed by '}'", offset: open)
    }
    index += 1
    let pieces = body.split(separator: "|", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    var filters: [URLTemplate.Filter] = []
    for name in pieces.dropFirst() {
      guard let filter = URLTemplate.Filter(rawValue: name) else {
        let known = URLTemplate.Filter.allCases.map(\.rawValue)
        throw TemplateError(
          message:
            "unknown filter '\(name)' in '{\(body)}'\(Suggestions.hint(for: name, in: known))"
            + " (filters: \(known.joined(separator: ", ")))", offset: open)
      }
      filters.append(filter)
    }
    return .variable(name: pieces[0], filters: filters)
  }
}
