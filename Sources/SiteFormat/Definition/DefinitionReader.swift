package import ClarissaCore
internal import Foundation
internal import YAML

/// Reads a site definition (`format: 1`) through the project's YAML layer. Every problem is a
/// located diagnostic with a fix where one can be named: unknown keys ("did you mean"), XPath
/// and JSONPath that do not compile (at the character), template variables that do not exist.
package struct DefinitionReader {
  /// The formats this clarissa reads.
  package static let formats = [1]
  package static let topKeys = [
    "format", "id", "name", "status", "summary", "language", "time_zone", "currency",
    "floor_area_unit", "politeness", "parameters", "cities", "categories", "requests", "search_url",
    "ids", "countries", "kind", "wall", "samples",
  ]
  /// The languages a definition may name (ISO 639-1): relative dates are read in those of
  /// ``DateText/languages``, month names in each; every one but `en` writes decimals with a
  /// comma.
  package static let languages = [
    "bg", "cs", "da", "de", "el", "en", "es", "fi", "fr", "hu", "it", "nl", "no", "pl", "pt", "ro",
    "sk", "sv", "uk",
  ]

  /// The definition in `bytes`, or the diagnostics that stop it (warnings come with either).
  package static func read(_ bytes: [UInt8], file: String) -> (SiteDefinition?, [Diagnostic]) {
    let document = YAMLReader.read(bytes)
    let nodes = DefinitionNodes(file: file)
    var diagnostics = document.problems.map {
      Diagnostic.error(
        $0.message, at: SourceLocation(file: file, line: $0.mark.line, column: $0.mark.column))
    }
    guard let root = document.root, document.problems.isEmpty else {
      if document.problems.isEmpty {
        diagnostics.append(.error("the site definition is empty", at: nil))
      }
      return (nil, diagnostics)
    }
    let definition = DefinitionReader(nodes: nodes).definition(root)
    diagnostics += nodes.diagnostics
    return (diagnostics.hasErrors ? nil : definition, diagnostics)
  }

  package let nodes: DefinitionNodes

  private func definition(_ root: Node) -> SiteDefinition? {
    guard let top = nodes.mapping(root, "the site definition", allowed: Self.topKeys) else {
      return nil
    }
    nodes.require(["format", "id", "name", "status", "summary", "requests"], in: top, "a site")
    if let format = top["format"], let value = nodes.text(format, "'format'"),
      !Self.formats.contains(Int(value) ?? -1)
    {
      nodes.error(
        "'format: \(value)' is not a format this clarissa reads (it reads format "
          + Self.formats.map(String.init).joined(separator: ", ") + ")", format)
      return nil
    }
    let id = siteID(top["id"])
    let statuses = SiteStatus.allCases.map(\.rawValue)
    let status = nodes.word(top["status"], "'status'", in: statuses).flatMap(SiteStatus.init)
    let timeZone = zone(top["time_zone"])
    let parameters = self.parameters(top["parameters"])
    let cities = names(top["cities"], "'cities'") ?? DeclaredNames(kind: .none)
    let categories = names(top["categories"], "'categories'")
    let scope = TemplateScope(
      parameters: parameters.map(\.name), cities: cities, categories: categories)
    let steps = self.steps(top["requests"], scope: scope)
    let searchURL = self.searchURL(top["search_url"], categories: categories)
    guard let id, let status, let steps else { return nil }
    return SiteDefinition(
      file: nodes.file, id: id, name: nodes.text(top["name"], "'name'") ?? id, status: status,
      summary: nodes.text(top["summary"], "'summary'") ?? "",
      language: nodes.word(top["language"], "'language'", in: Self.languages) ?? "en",
      timeZone: timeZone ?? TimeZone(identifier: "UTC") ?? .current,
      currency: currency(top["currency"]),
      floorAreaUnit: nodes.word(
        top["floor_area_unit"], "'floor_area_unit'", in: AreaUnit.allCases.map(\.rawValue)
      ).flatMap(AreaUnit.init) ?? .squareMetres,
      politeness: politeness(top["politeness"]),
      parameters: parameters, cities: cities, categories: categories, steps: steps,
      searchURL: searchURL,
      idsUnique: nodes.word(top["ids"], "'ids'", in: ["unique", "may_repost"]) == "unique",
      countries: countries(top["countries"]),
      kind: nodes.word(top["kind"], "'kind'", in: SiteKind.allCases.map(\.rawValue))
        .flatMap(SiteKind.init) ?? .marketplace,
      wall: nodes.word(top["wall"], "'wall'", in: SiteWall.allCases.map(\.rawValue))
        .flatMap(SiteWall.init) ?? SiteWall.none,
      samples: samples(top["samples"], id: id))
  }

  /// `samples: [{file: Fixtures/<id>/<file>, facts: [coordinates, rooms]}]`: the recorded
  /// answers the site is checked against and the listing facts each carries.
  private func samples(_ node: Node?, id: String) -> [SiteSample] {
    nodes.list(node).compactMap { item in
      guard let keys = nodes.mapping(item, "a sample", allowed: ["file", "facts"]) else {
        return nil
      }
      nodes.require(["file"], in: keys, "a sample")
      guard let fileNode = keys["file"], let file = nodes.text(fileNode, "a sample's 'file'")
      else { return nil }
      guard file.hasPrefix("Fixtures/\(id)/"), !file.contains("..") else {
        nodes.error(
          "a sample's 'file' is a recorded answer in Fixtures/\(id)/, found '\(file)'", fileNode)
        return nil
      }
      let facts = nodes.list(keys["facts"]).compactMap {
        nodes.word($0, "a sample's fact", in: SiteSample.factNames)
      }
      return SiteSample(file: file, facts: facts)
    }
  }

  /// `countries: [FR, BE]`: ISO 3166-1 alpha-2 codes, upper case.
  private func countries(_ node: Node?) -> [String] {
    nodes.list(node).compactMap { item in
      guard let code = nodes.text(item, "a country in 'countries'") else { return nil }
      guard code.range(of: "^[A-Z]{2}$", options: .regularExpression) != nil,
        Locale.Region.isoRegions.contains(where: { $0.identifier == code })
      else {
        nodes.error(
          "'\(code)' is not a country code: write ISO 3166-1 alpha-2 codes in capitals "
            + "(DE, AT, CH, GB)", item)
        return nil
      }
      return code
    }
  }

  private func siteID(_ node: Node?) -> String? {
    guard let node, let id = nodes.text(node, "'id'") else { return nil }
    guard id.range(of: "^[a-z][a-z0-9-]{1,39}$", options: .regularExpression) != nil else {
      nodes.error(
        "'id' must be lower case letters, digits and '-', starting with a letter "
          + "(what a search writes in 'site:'), found '\(id)'", node)
      return nil
    }
    return id
  }

  private func zone(_ node: Node?) -> TimeZone? {
    guard let node, let name = nodes.text(node, "'time_zone'") else { return nil }
    guard let zone = TimeZone(identifier: name) else {
      let known = TimeZone.knownTimeZoneIdentifiers
      nodes.error(
        "'\(name)' is not an IANA time zone\(Suggestions.hint(for: name, in: known))", node)
      return nil
    }
    return zone
  }

  private func currency(_ node: Node?) -> String? {
    guard let node, let code = nodes.text(node, "'currency'") else { return nil }
    guard code.range(of: "^[A-Z]{3}$", options: .regularExpression) != nil else {
      nodes.error("'currency' must be an ISO 4217 code such as EUR or CHF, found '\(code)'", node)
      return nil
    }
    return code
  }

  private func politeness(_ node: Node?) -> Politeness {
    var result = Politeness(minimumDelay: 5, jitter: 2, concurrencyPerHost: 1, minimumInterval: 600)
    guard let node,
      let keys = nodes.mapping(
        node, "'politeness'", allowed: ["delay", "jitter", "concurrency", "interval"])
    else { return result }
    if let delay = nodes.duration(keys["delay"], "'politeness.delay'") {
      result.minimumDelay = delay.timeInterval
    }
    if let jitter = nodes.duration(keys["jitter"], "'politeness.jitter'") {
      result.jitter = jitter.timeInterval
    }
    if let count = nodes.integer(keys["concurrency"], "'politeness.concurrency'", in: 1...4) {
      result.concurrencyPerHost = count
    }
    if let interval = nodes.duration(keys["interval"], "'politeness.interval'") {
      result.minimumInterval = interval.seconds
    }
    return result
  }
}
