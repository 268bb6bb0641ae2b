package import ClarissaCore
package import Foundation
package import Markup

/// Reads one answer by a step's `read:`: the items, each field through its path and filters,
/// and what a later step needs. Keeps count of what each field found, so a selector that no
/// longer matches is reported at its line instead of showing as a site that returns nothing.
package struct PageReader {
  package let definition: SiteDefinition
  package let spec: ReadSpec
  /// The page's address, for relative URLs.
  package let pageURL: String
  /// When the answer came, for relative dates ("vor 3 Std.").
  package let now: Date

  /// One item of an answer: an element of a page, or a value of a JSON document.
  package enum Item {
    case html(HTMLNode)
    /// A value, and the document it is in (nil: it is the document).
    case json(Any, root: Any?)
  }

  /// What an answer gave.
  package struct Result {
    var listings: [Listing] = []
    var collected: [String: [String]] = [:]
    var notes: [String] = []
    /// Items read, and per field the items in which it found something.
    var items = 0
    var found: [FieldSpec.Name: Int] = [:]
    /// Per item, each field's values after the filters (for `clarissa sites check`).
    var values: [[FieldSpec.Name: [FieldValue]]] = []
    /// Per fact, the items in which it found something; per item, each fact's values.
    var factsFound: [String: Int] = [:]
    var factValues: [[String: [FieldValue]]] = []
    /// Per item, the index in ``listings`` of the listing it gave (nil: skipped), for `sites
    /// check` to show values as stored.
    var listingOfItem: [Int?] = []
    /// For a JSON answer in which `items` found nothing (and `empty` did not say so): where the
    /// path stops finding and what is there (``ReadSpec/itemsNote(_:)`` says it). A run reads
    /// it as an empty answer; `inspect` and `sites check` fail with it.
    var itemsNotFound: String?
  }

  package func read(_ body: [UInt8]) throws(SiteError) -> Result {
    let answer = try document(body)
    let roots = answer.documents
    if let blocked = spec.blocked, !values(blocked, in: roots).isEmpty {
      throw SiteError("the page matches 'blocked' (\(blocked.location))", isBlock: true)
    }
    var result = Result()
    for (name, selector) in spec.collect {
      result.collected[name] = values(selector, in: roots).map(\.text).filter { !$0.isEmpty }
    }
    guard let itemsSelector = spec.items else { return result }
    let items = roots.flatMap { self.items(itemsSelector, in: $0) }
    if items.isEmpty { result.itemsNotFound = try checkEmpty(roots, itemsSelector) }
    result.items = items.count
    result.notes += membersNote(itemsSelector, roots)
    let tables = try lookupTables(answer, notes: &result.notes)
    // Fields that look a value up come after the field whose value is their key.
    let ordered = spec.fields.filter { $0.lookup == nil } + spec.fields.filter { $0.lookup != nil }
    for (index, item) in items.enumerated() {
      var fields: [FieldSpec.Name: [FieldValue]] = [:]
      for field in ordered {
        let found = value(field, in: item, tables: tables, fields: fields)
        if !found.isEmpty { result.found[field.name, default: 0] += 1 }
        fields[field.name] = found
      }
      var facts: [String: [FieldValue]] = [:]
      for fact in spec.facts {
        guard let name = fact.fact else { continue }
        let found = value(fact, in: item, tables: tables, fields: fields)
        if !found.isEmpty { result.factsFound[name, default: 0] += 1 }
        facts[name] = found
      }
      result.values.append(fields)
      result.factValues.append(facts)
      let builder = ListingBuilder(definition: definition, pageURL: pageURL)
      switch builder.listing(fields, facts: facts) {
      case .success(let listing):
        result.listingOfItem.append(result.listings.count)
        result.listings.append(listing)
      case .failure(let why):
        result.notes.append("item \(index + 1): \(why); skipped")
        result.listingOfItem.append(nil)
      }
    }
    result.notes += silentFields(result)
    return result
  }

  /// A page where the items path finds nothing: fine when it says so (`empty`); for a JSON
  /// answer, what the path's parent holds (an empty result to a run); otherwise the page has
  /// likely changed.
  private func checkEmpty(_ roots: [Item], _ items: Selector) throws(SiteError) -> String? {
    if let empty = spec.empty {
      guard values(empty, in: roots).isEmpty else { return nil }
    }
    var why: String?
    if case (.json(let path), .json(let document, _)?) = (items.compiled, roots.first) {
      why = path.whyEmpty(in: document) ?? "it finds no value"
      if spec.empty == nil { return why }
    }
    throw SiteError(
      "'items' (\(items.text), \(items.location)) found nothing and the page does not say it is "
        + "empty\(why.map { " (\($0))" } ?? ""): the site may have changed its page "
        + "('clarissa sites check' shows more)")
  }

  /// Fields that found nothing in any item of a page with several.
  private func silentFields(_ result: Result) -> [String] {
    guard result.items >= 2 else { return [] }
    return (spec.fields + spec.facts).filter {
      !$0.optional && $0.selector != nil && result.found(by: $0) == 0
    }
    .map {
      "\($0.shownName) (\($0.location)) found nothing in any of the "
        + "\(result.items) items: the site may have changed its page"
    }
  }

  /// An answer as read: its documents (the page, the JSON, or each `json_in` element's JSON),
  /// and the HTML page for lookups that take their JSON from an element of it.
  struct Answer {
    var documents: [Item]
    var page: HTMLNode?
  }

  private func document(_ body: [UInt8]) throws(SiteError) -> Answer {
    switch spec.format {
    case .json:
      return Answer(documents: [.json(try Self.json(body), root: nil)])
    case .html:
      let page: HTMLDocument
      do {
        page = try HTMLDocument(bytes: body, url: pageURL)
      } catch {
        throw SiteError("the answer is not a readable HTML page: \(error)")
      }
      guard let root = page.root else { throw SiteError("the answer is an empty HTML page") }
      guard let jsonIn = spec.jsonIn else { return Answer(documents: [.html(root)], page: root) }
      return Answer(documents: try jsonDocuments(jsonIn, in: root), page: root)
    }
  }

  /// The JSON of every element `selector` finds (each a document of its own).
  func jsonDocuments(_ selector: Selector, in page: HTMLNode) throws(SiteError) -> [Item] {
    let scripts = values(selector, in: .html(page))
    guard !scripts.isEmpty else {
      throw SiteError(
        "'json_in' (\(selector.text), \(selector.location)) found no element in the page")
    }
    var documents: [Item] = []
    for script in scripts {
      documents.append(.json(try Self.json(Array(script.text.utf8)), root: nil))
    }
    return documents
  }

  package static func json(_ bytes: [UInt8]) throws(SiteError) -> Any {
    do {
      return try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    } catch {
      throw SiteError("the answer is not valid JSON (\(AnswerSnippet.of(bytes)))")
    }
  }

  private func items(_ selector: Selector, in root: Item) -> [Item] {
    switch (selector.compiled, root) {
    case (.xpath(let expression), .html(let node)):
      if case .nodes(let nodes) = node.evaluate(expression) { return nodes.map { Item.html($0) } }
      return []
    case (.json(let path), .json(let document, _)):
      return path.select(document).map { .json($0, root: document) }
    default: return []
    }
  }

  /// What a selector finds in each of an answer's documents.
  private func values(_ selector: Selector, in roots: [Item]) -> [FieldValue] {
    roots.flatMap { values(selector, in: $0) }
  }

  /// What a selector finds in an item (the document root for a whole-page selector).
  package func values(_ selector: Selector, in item: Item) -> [FieldValue] {
    switch (selector.compiled, item) {
    case (.xpath(let expression), .html(let node)):
      switch node.evaluate(expression) {
      // An element's text keeps its line breaks (`<br>`, blocks); attributes are one line.
      case .nodes(let nodes): return nodes.map { .text($0.text) }
      case .string(let text): return [.text(Self.collapsed(text))]
      case .number(let number): return number.isNaN ? [] : [.number(number)]
      case .boolean(let flag): return flag ? [.text("true")] : []
      }
    case (.json(let path), .json(let value, let root)):
      // Never `root is NSNull`: on Linux that cast bridges a whole array to look (a copy of the
      // document per field and item: 8 s for flatfox's 100 listings).
      return path.select(root ?? value, current: value).compactMap(Self.jsonValue)
    default: return []
    }
  }

  private func value(
    _ field: FieldSpec, in item: Item, tables: [String: LookupTable],
    fields: [FieldSpec.Name: [FieldValue]]
  ) -> [FieldValue] {
    var values: [FieldValue]
    if let lookup = field.lookup {
      let key = fields[lookup.by]?.first?.text
      let entry = key.flatMap { tables[lookup.table]?.entries[$0] }
      values = entry.map { self.values(field.selector, in: .json($0.entry, root: $0.root)) } ?? []
    } else {
      values =
        field.selector.map { self.values($0, in: item) } ?? field.value.map {
          [FieldValue.text($0)]
        }
        ?? []
    }
    values = values.filter { $0 != .text("") }
    let filters = FilterRunner(
      definition: definition, pageURL: pageURL, now: now)
    for filter in field.filters { values = filters.apply(filter, to: values) }
    return values
  }

  private func values(_ selector: Selector?, in item: Item) -> [FieldValue] {
    selector.map { values($0, in: item) } ?? []
  }

  package static func jsonValue(_ value: Any) -> FieldValue? {
    if JSONKind.isContainer(value) { return nil }
    if let text = value as? String { return .text(collapsed(text)) }
    if let flag = JSONKind.boolean(value) { return .text(flag ? "true" : "false") }
    if let number = value as? NSNumber { return .number(number.doubleValue) }
    return nil
  }

  /// Runs of whitespace as one space, none at the ends.
  package static func collapsed(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}

extension PageReader.Result {
  /// In how many items `field` (a field or a fact) found something.
  package func found(by field: FieldSpec) -> Int {
    field.fact.map { factsFound[$0] ?? 0 } ?? found[field.name] ?? 0
  }

  /// What `field` found in item `index`.
  package func values(of field: FieldSpec, item index: Int) -> [FieldValue] {
    guard index < values.count else { return [] }
    if let fact = field.fact { return factValues[index][fact] ?? [] }
    return values[index][field.name] ?? []
  }
}

extension FieldSpec {
  /// `field 'price'`, `fact 'Etage'`: as messages name it.
  package var shownName: String {
    fact.map { "fact '\($0)'" } ?? "field '\(name.rawValue)'"
  }

  /// `price`, `facts.Etage`: as `sites check` lists it.
  package var key: String { fact.map { "facts.\($0)" } ?? name.rawValue }
}

extension ReadSpec {
  /// What `items` finding nothing says, `why` being ``PageReader/Result/itemsNotFound``.
  package func itemsNote(_ why: String) -> String {
    "'items' (\(items?.text ?? ""), \(items.map { "\($0.location)" } ?? "")) found nothing: \(why)"
  }
}
