internal import ClarissaCore
internal import YAML

/// `searches:` (with `defaults:` applied to each) into ``Search`` values.
extension ConfigReader {
  /// A search's value for one key: its own, else the one in `defaults`, and which it was.
  struct Field {
    /// The key, as written.
    let key: String
    let node: Node
    let keyNode: Node
    let origin: String

    /// "'key' in search 'name'", as messages name it.
    var what: String { "'\(key)' in \(origin)" }
  }

  /// A search's own table and `defaults`, looked up together.
  struct SearchLookup {
    let own: Table
    let defaults: Table?
    let context: String
    /// Whether the search pasted a `url:` (which names its place).
    var pasted = false

    func field(_ key: String) -> Field? {
      if let entry = own.entry(key) {
        return Field(key: key, node: entry.value, keyNode: entry.keyNode, origin: context)
      }
      if let entry = defaults?.entry(key) {
        return Field(key: key, node: entry.value, keyNode: entry.keyNode, origin: "defaults")
      }
      return nil
    }
  }

  static let defaultSite = "craigslist"

  func readSearches(_ top: Table, config: Config) -> [Search] {
    let defaults = readDefaults(top["defaults"])
    guard let node = top["searches"] else {
      // A misspelt 'searches' already has its own error.
      let misspelt = top.entries.contains {
        !Self.topLevelKeys.contains($0.key)
          && Suggestions.closest(to: $0.key, in: Self.topLevelKeys).first == "searches"
      }
      if misspelt { return [] }
      error("the config has no 'searches' list; add one with at least one search", at: top.node)
      return []
    }
    if node.isNull || node.sequence?.isEmpty == true {
      warning("'searches' is empty: nothing will run", at: node)
      return []
    }
    guard let items = node.sequence else {
      error(
        "expected a list of searches ('- name: ...') for 'searches', found \(node.kindDescription)",
        at: node)
      return []
    }
    var firstNames: [String: Node] = [:]
    var searches: [Search] = []
    for (index, item) in items.enumerated() {
      if let nameNode = Self.nameNode(of: item), let name = nameNode.scalar?.value, !nameNode.isNull
      {
        if let first = firstNames[name] {
          error(
            "duplicate search name '\(name)'", at: nameNode,
            notes: [Diagnostic.Note("'\(name)' is first used here", at: location(first))])
        } else {
          firstNames[name] = nameNode
        }
      }
      if let search = readSearch(item, number: index + 1, defaults: defaults, config: config) {
        searches.append(search)
      }
    }
    return searches
  }

  private static func nameNode(of item: Node) -> Node? {
    item.mapping?.first { $0.key.scalar?.value == "name" }?.value
  }

  private func readDefaults(_ node: Node?) -> Table? {
    guard let node, !node.isNull, let table = table(node, "'defaults'") else { return nil }
    let siteKeys = sites.all.flatMap { $0.parameters.map(\.name) }
    let allowed = SearchKey.defaultsNames + siteKeys
    for entry in table.entries where !allowed.contains(entry.key) {
      if let reason = SearchKey.named[entry.key]?.ownOnly {
        error("'defaults' cannot set '\(entry.key)': \(reason)", at: entry.keyNode)
      } else {
        error(searchKeyMessage(entry.key, allowed: allowed, in: "'defaults'"), at: entry.keyNode)
      }
    }
    return table
  }

  private func readSearch(_ item: Node, number: Int, defaults: Table?, config: Config) -> Search? {
    guard let own = table(item, "search #\(number)") else { return nil }
    guard let nameNode = own["name"] else {
      error("search #\(number) has no 'name'; every search needs a unique name", at: item)
      return nil
    }
    guard let name = string(nameNode, "'name' of search #\(number)"), !name.isEmpty else {
      return nil
    }
    var scope = SearchLookup(own: own, defaults: defaults, context: "search '\(name)'")
    let siteField = scope.field("site")
    let namedID = siteField.flatMap { string($0.node, "'site' in \($0.origin)") }
    if let namedID, let siteField, sites.site(namedID) == nil {
      let message = sites.unknownSite(namedID)
      let origin = "unknown site '\(namedID)'"
      error(
        origin + " in \(siteField.origin)" + message.dropFirst(origin.count), at: siteField.node)
    }
    var pasted: PastedSearch?
    if let urlNode = own["url"] {
      let ownSite = siteField?.origin == scope.context ? namedID : nil
      pasted = readPastedURL(
        urlNode, ownSite: ownSite.map { ($0, siteField?.node) }, context: scope.context)
      guard pasted != nil else {
        checkCommonFields(scope)
        return nil
      }
    }
    guard let site = sites.site(pasted?.site.id ?? namedID ?? Self.defaultSite) else {
      checkCommonFields(scope)
      return nil
    }
    checkSearchKeys(own, site: site, context: scope.context)
    reportStatus(of: site, at: siteField?.node ?? nameNode, in: scope.context)
    if pasted != nil { scope = withoutCarriedKeys(scope, site: site) }
    var search = Search(name: name, site: site.id, location: location(nameNode))
    search.idsUnique = site.idsUnique
    readCommonFields(scope, site: site, into: &search, config: config)
    if let pasted {
      search.url = pasted.url
      search.cities = pasted.city.map { [CityRef($0)] } ?? []
      search.category = pasted.category
    }
    search.parameters = readParameters(
      scope, site: site, nameNode: nameNode, category: search.category)
    return search
  }

  /// With an unknown site, the common fields are still checked so that one pass finds all.
  private func checkCommonFields(_ scope: SearchLookup) {
    var scratch = Search(name: "", site: "")
    readCommonFields(scope, site: nil, into: &scratch, config: Config())
  }

  private func checkSearchKeys(_ own: Table, site: any FeedSource, context: String) {
    let allowed = searchKeys(of: site)
    for entry in own.entries where !allowed.set.contains(entry.key) {
      if let owner = sites.all.first(where: { $0.parameter(named: entry.key) != nil }) {
        error(
          "'\(entry.key)' is a parameter of site '\(owner.id)', not of '\(site.id)' (\(context))",
          at: entry.keyNode)
      } else {
        error(searchKeyMessage(entry.key, allowed: allowed.list, in: context), at: entry.keyNode)
      }
    }
  }

  /// The keys a search on `site` may hold, made on the first search that uses the site.
  private func searchKeys(of site: any FeedSource) -> (list: [String], set: Set<String>) {
    if let known = searchKeys[site.id] { return known }
    let list = SearchKey.names + site.parameters.map(\.name)
    let keys = (list: list, set: Set(list))
    searchKeys[site.id] = keys
    return keys
  }

  private func searchKeyMessage(_ key: String, allowed: [String], in context: String) -> String {
    if let synonym = SearchKey.synonyms[key] {
      return "unknown key '\(key)' in \(context); did you mean '\(synonym)'?"
    }
    return unknownKeyMessage(key, allowed: allowed, in: context, hints: SearchKey.hints)
  }

  private func reportStatus(of site: any FeedSource, at node: Node, in context: String) {
    switch site.status {
    case .active: return
    case .legacy:
      warning("site '\(site.id)' (\(context)) is legacy: \(site.summary)", at: node)
    case .defunct:
      warning(
        "site '\(site.id)' (\(context)) is defunct: \(site.summary) The search will report the "
          + "source as unavailable", at: node)
    case .unverified:
      warning(
        "site '\(site.id)' (\(context)) is unverified: it was built from documentation and never "
          + "checked against the live site", at: node)
    }
  }
}
