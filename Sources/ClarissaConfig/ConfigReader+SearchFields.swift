internal import ClarissaCore
internal import Foundation
internal import YAML

/// The common fields of one search, read by the loop over ``SearchKey/all``; `site` is nil
/// when the search names an unknown site. The readers of the keys that need more than a line.
extension ConfigReader {
  func readCommonFields(
    _ scope: SearchLookup, site: (any FeedSource)?, into search: inout Search, config: Config
  ) {
    var draft = SearchKey.Draft(search: search, scope: scope, site: site, config: config)
    for key in SearchKey.all {
      switch key.read {
      case .first: continue
      case .always(let read): read(self, &draft)
      case .field(let read):
        if let field = scope.field(key.name) { read(self, field, &draft) }
      }
    }
    search = draft.search
    // What the keys make together: the places shown beside listings, and a place filter on a
    // site that places no listing.
    search.places = search.facts.near.isEmpty ? config.places : search.facts.near.map(\.place)
    warnNoCoordinates(
      scope, site: site, geocoder: config.geocoder, missing: search.facts.missing)
  }

  func readCategory(_ field: Field, site: (any FeedSource)?) -> String? {
    guard let code = string(field.node, field.what, optional: true) else {
      return nil
    }
    guard let site else { return code }
    switch site.checkCategory(code) {
    case .valid: break
    case .unknown(let suggestions, let reason):
      error(
        nameMessage(
          "unknown \(site.id) category", code, field.origin, suggestions, reason,
          meaning: site.categoryMeaning),
        at: field.node)
    case .means(let meant):
      warning(
        "\(site.id) category '\(code)' in \(field.origin) is read as '\(meant)': write '\(meant)' "
          + "to say so", at: field.node)
      return meant
    case .doubtful(let suggestions, let reason):
      let because = (reason.map { "; \($0)" } ?? "") + "; it is sent as written"
      warning(
        nameMessage(
          "unlisted \(site.id) category", code, field.origin, suggestions, because,
          meaning: site.categoryMeaning),
        at: field.node)
    }
    return code
  }

  /// "unknown craigslist area 'sfbya' in search 'x' (reason); did you mean 'sfbay'?"
  /// With `meaning`, every suggestion says what it is: "did you mean 'bia' (all bicycles),
  /// 'bik' (bicycles - by owner) or 'bid' (bicycles - by dealer)?".
  private func nameMessage(
    _ what: String, _ name: String, _ origin: String, _ suggestions: [String], _ reason: String?,
    meaning: ((String) -> String?)? = nil
  ) -> String {
    let because = reason.map { $0.hasPrefix(";") ? $0 : " (\($0))" } ?? ""
    guard let meaning else {
      let hint = suggestions.first.map { "; did you mean '\($0)'?" } ?? ""
      return "\(what) '\(name)' in \(origin)\(because)\(hint)"
    }
    let described = suggestions.prefix(3).map { code in
      "'\(code)'" + (meaning(code).map { " (\($0))" } ?? "")
    }
    let list =
      described.count > 1
      ? described.dropLast().joined(separator: ", ") + " or " + (described.last ?? "")
      : described.first ?? ""
    let hint = list.isEmpty ? "" : "; did you mean \(list)?"
    return "\(what) '\(name)' in \(origin)\(because)\(hint)"
  }

  func readCities(
    _ scope: SearchLookup, site: (any FeedSource)?, groups: [String: [String]]
  ) -> [CityRef] {
    guard let field = scope.field("cities") else {
      if let city = site?.defaultCity, !scope.pasted { return [CityRef(city)] }
      if site?.cities == .required, !scope.pasted, let name = scope.own["name"] {
        error("\(scope.context) names no cities; add e.g. 'cities: [sfbay]'", at: name)
      }
      return []
    }
    if let site, site.cities == .unused {
      error(
        "site '\(site.id)' takes no cities (\(field.origin)); list feed URLs under 'feeds'",
        at: field.keyNode)
      return []
    }
    var result: [CityRef] = []
    let entries = stringList(field.node, "'cities' in \(field.origin)")
    for (name, node) in entries {
      expand(
        name, at: node, origin: field.origin, group: nil, site: site, into: &result, visiting: [])
    }
    warnNestedCities(result, entries: entries, origin: field.origin)
    if entries.isEmpty, field.node.sequence?.isEmpty ?? field.node.isNull, site?.cities == .required
    {
      error("'cities' in \(field.origin) lists no cities", at: field.node)
    }
    return result
  }

  /// `seattle` already holds `seattle/est`: searching both repeats the subarea's listings.
  private func warnNestedCities(_ cities: [CityRef], entries: [(String, Node)], origin: String) {
    guard cities.contains(where: { $0.name.utf8.contains(UInt8(ascii: "/")) }) else { return }
    let names = Set(cities.map(\.name))
    for city in cities {
      guard let slash = city.name.firstIndex(of: "/") else { continue }
      let area = String(city.name[..<slash])
      guard names.contains(area) else { continue }
      let node = entries.first { $0.0 == city.name }?.1 ?? entries.first { $0.0 == area }?.1
      guard let node else { continue }
      warning(
        "'\(city.name)' is part of '\(area)', which \(origin) also searches: its listings would "
          + "come twice; keep '\(area)' for the whole area or '\(city.name)' for the subarea only",
        at: node)
    }
  }

  /// Adds a city, or every city of a group (groups may name groups; cycles are errors).
  private func expand(
    _ name: String, at node: Node, origin: @autoclosure () -> String, group: String?,
    site: (any FeedSource)?,
    into result: inout [CityRef], visiting: Set<String>
  ) {
    if let entry = cityGroupNodes[name] {
      usedNames.insert(UsedName(kind: "group", name: name))
      guard !visiting.contains(name) else {
        error("city group '\(name)' contains itself (through \(origin()))", at: node)
        return
      }
      let inside = visiting.union([name])
      for (member, memberNode) in stringList(entry.value, "city group '\(name)'") {
        expand(
          member, at: memberNode, origin: "city group '\(name)'", group: group ?? name, site: site,
          into: &result, visiting: inside)
      }
      return
    }
    if let site {
      let key = CityCheckKey(site: site.id, city: name)
      let check: NameCheck
      if let known = cityChecks[key] {
        check = known
      } else {
        check = site.checkCity(name)
        cityChecks[key] = check
      }
      switch check {
      case .valid: break
      case .unknown(let suggestions, let reason):
        let meaning = { (city: String) in
          site.knownCities(matching: city).first { $0.name == city }?.description
        }
        error(
          nameMessage(
            "unknown \(site.id) city", name, origin(), suggestions, reason, meaning: meaning),
          at: node)
        return
      case .doubtful(let suggestions, let reason):
        warning(nameMessage("\(site.id) city", name, origin(), suggestions, reason), at: node)
      case .means(let meant):
        let what =
          site.knownCities(matching: meant).first { $0.name == meant }.map {
            " (\($0.description))"
          }
          ?? ""
        warning(
          "\(site.id) city '\(name)' in \(origin()) is read as '\(meant)'\(what): write '\(meant)' "
            + "to say so", at: node)
        if !result.contains(where: { $0.name == meant }) {
          result.append(CityRef(meant, group: group))
        }
        return
      }
    }
    if !result.contains(where: { $0.name == name }) { result.append(CityRef(name, group: group)) }
  }

  /// `notify_on: [new, price_drop]`: one kind or a list of them.
  func readEvents(_ field: Field) -> Set<ListingEventKind> {
    let what = "'notify_on' in \(field.origin)"
    if field.node.mapping != nil {
      error(
        "expected a list such as '[new, price_drop]' for \(what), found a mapping", at: field.node)
      return [.new]
    }
    let words = ListingEventKind.announceable.map(\.rawValue)
    let kinds = Set(
      (field.node.sequence ?? [field.node]).compactMap { node -> ListingEventKind? in
        if let text = node.scalar?.value, ["gone", "reposted"].contains(text) {
          error(
            "'\(text)' in \(what) is told of starred listings only (clarissa star ID), whatever "
              + "notify_on says (expected \(words.joined(separator: ", ")))", at: node)
          return nil
        }
        return word(node, what, among: words).flatMap(ListingEventKind.init(rawValue:))
      })
    return kinds.isEmpty ? [.new] : kinds
  }

  /// `price_drop: {min_percent: 5, min_amount: 10}`.
  func readThreshold(_ field: Field) -> PriceThreshold? {
    let key = field.key
    let what = field.what
    guard let table = table(field.node, what) else { return nil }
    checkKeys(table, allowed: ["min_percent", "min_amount"], in: what)
    var threshold = PriceThreshold(minPercent: 5, minAmount: 10)
    for (name, path) in [("min_percent", \PriceThreshold.minPercent), ("min_amount", \.minAmount)] {
      guard let node = table[name] else { continue }
      if let value = amount(node, "'\(key).\(name)' in \(field.origin)") {
        threshold[keyPath: path] = value
      }
    }
    return threshold
  }

  func readPrice(_ field: Field, site: (any FeedSource)?) -> PriceRange? {
    func what() -> String { "'price' in \(field.origin)" }
    if field.node.scalar != nil, !field.node.isNull {
      error(
        "expected a mapping such as '{min: 100, max: 500}' for \(what()), found \(field.node.kindDescription)",
        at: field.node)
      return nil
    }
    guard !field.node.isNull, let table = table(field.node, what()) else { return nil }
    let split = splitThousands(table)
    checkKeys(
      split.isEmpty
        ? table : Table(node: table.node, entries: table.entries.filter { split[$0.key] == nil }),
      allowed: ["min", "max"], in: what())
    func bound(_ key: String) -> Double? {
      guard let node = table[key] else { return nil }
      if let written = split.first(where: { $0.value.key == key })?.value.written {
        let digits = written.filter(\.isNumber)
        error(
          "expected a number for 'price.\(key)' in \(field.origin), found '\(written)'; write "
            + "\(digits) (in '{...}' a comma starts the next entry)", at: node)
        return nil
      }
      warnThousandsPoint(node, key: key, origin: field.origin, site: site)
      return amount(node, "'price.\(key)' in \(field.origin)")
    }
    let min = bound("min")
    let max = bound("max")
    if let min, let max, min > max, let node = table["max"] {
      error(
        "'price.max' (\(max.formatted())) is below 'price.min' (\(min.formatted())) in \(field.origin)",
        at: node)
      return nil
    }
    return min == nil && max == nil ? nil : PriceRange(min: min, max: max)
  }

  /// `{max: $2,600}` reads as `max: $2` plus a key `600`: the digit-only keys that continue the
  /// value before them, with the amount as written (`600` -> `max`, `$2,600`).
  private func splitThousands(_ table: Table) -> [String: (key: String, written: String)] {
    var result: [String: (key: String, written: String)] = [:]
    var previous: (key: String, written: String)?
    for entry in table.entries {
      let isGroup = entry.value.isNull && entry.key.count == 3 && entry.key.allSatisfy(\.isNumber)
      if isGroup, let before = previous, before.written.last?.isNumber == true {
        previous = (before.key, before.written + "," + entry.key)
        result[entry.key] = previous
        continue
      }
      previous = entry.value.scalar.map { (entry.key, $0.value) }
    }
    // Every group of one value carries the whole amount as written.
    guard !result.isEmpty else { return result }
    return result.mapValues { group in
      result.values.filter { $0.key == group.key }.max { $0.written.count < $1.written.count }
        ?? group
    }
  }

  func readInterval(_ field: Field, site: (any FeedSource)?) -> Interval? {
    guard let interval = interval(field.node, "'interval' in \(field.origin)") else { return nil }
    if let site, interval.seconds < site.politeness.minimumInterval {
      let minimum = Interval(seconds: site.politeness.minimumInterval)
      warning(
        "interval \(interval) in \(field.origin) is shorter than \(site.displayName)'s polite "
          + "minimum of \(minimum); fast polling gets clients blocked", at: field.node)
    }
    return interval
  }

  /// `defaults` filters first, then the search's own.
  func readAllFilters(_ scope: SearchLookup) -> [Filter] {
    var filters: [Filter] = []
    if let defaults = scope.defaults, let node = defaults["filters"] {
      filters += readFilters(node, in: "defaults")
    }
    if let node = scope.own["filters"] { filters += readFilters(node, in: scope.context) }
    return filters
  }

  /// Names that must be defined elsewhere in the file (channels, windows).
  func references(_ field: Field, to kind: String, known: Set<String>) -> [String] {
    stringList(field.node, "'\(field.keyNode.scalar?.value ?? "")' in \(field.origin)").compactMap {
      name, node in
      if known.contains(name) {
        usedNames.insert(UsedName(kind: kind, name: name))
        return name
      }
      let defined = known.sorted()
      let list = defined.isEmpty ? "none is defined" : "defined: \(defined.joined(separator: ", "))"
      error(
        "unknown \(kind) '\(name)' in \(field.origin)" + Suggestions.hint(for: name, in: defined)
          + " (\(list))", at: node)
      return nil
    }
  }
}
