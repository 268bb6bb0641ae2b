package import ClarissaCore
internal import Foundation

/// A site read from a definition (`format: 1`): a ``FeedSource`` like the Swift adapters, so
/// the engine, `validate`, `inspect`, `explain` and `sites` treat both kinds alike.
package struct DeclaredSite: FeedSource {
  package let definition: SiteDefinition

  /// The site a definition declares.
  package init(definition: SiteDefinition) { self.definition = definition }

  package var id: String { definition.id }
  package var displayName: String { definition.name }
  package var status: SiteStatus { definition.status }
  package var summary: String { definition.summary }
  package var idsUnique: Bool { definition.idsUnique }
  package var countries: [String] { definition.countries }
  package var kind: SiteKind { definition.kind }
  package var wall: SiteWall { definition.wall }
  package var samples: [SiteSample] { definition.samples }
  package var parameters: [SiteParameter] { definition.parameters }
  package var politeness: Politeness { definition.politeness }
  package var cities: CityRule { definition.cities.kind == .none ? .unused : .required }
  /// The cities table's `default:` (Marktplaats' `nederland`), searched when a search names
  /// no city.
  package var defaultCity: String? { definition.cities.defaultName }
  /// How a saved answer is read (`inspect --mode`): `page` for a site of one request; else one
  /// mode per request, named by its `id` (the last `listings` unless it has one).
  package var modes: [String] { definition.modes }
  package var currency: String? { definition.currency }
  /// Whether a request reads a latitude and a longitude.
  package var givesCoordinates: Bool {
    definition.steps.contains { step in
      let names = Set(step.read.fields.map(\.name))
      return names.contains(.latitude) && names.contains(.longitude)
    }
  }

  /// An unknown city lists the known ones (or counts them), and points at `url:` when the
  /// site reads pasted search pages: a table of cities is never complete.
  package func checkCity(_ name: String) -> NameCheck {
    let check = Self.check(name, definition.cities)
    guard case .unknown(let suggestions, nil) = check, definition.cities.kind == .table else {
      return check
    }
    let known = definition.cities.order
    var reason =
      known.count <= 12
      ? "known: \(known.joined(separator: ", "))"
      : "\(known.count) known; 'clarissa sites \(id) --cities WORD' lists them"
    if definition.searchURL != nil {
      reason += "; for another place, paste the address of a \(displayName) search as 'url:'"
    }
    return .unknown(suggestions: suggestions, reason: reason)
  }

  package func checkCategory(_ name: String) -> NameCheck {
    definition.categories.map { Self.check(name, $0) } ?? .valid
  }

  package static func check(_ name: String, _ names: DeclaredNames) -> NameCheck {
    switch names.kind {
    case .table:
      guard names.table[name] == nil else { return .valid }
      return .unknown(suggestions: Suggestions.closest(to: name, in: names.order, limit: 3))
    case .pattern:
      let range = NSRange(name.startIndex..., in: name)
      guard names.pattern?.firstMatch(in: name, range: range) == nil else { return .valid }
      return .unknown(
        suggestions: [], reason: "it does not match '\(names.patternText ?? "")'")
    case .free, .none: return .valid
    }
  }

  package func knownCities(matching filter: String?) -> [KnownCity] {
    Self.known(definition.cities, filter)
  }

  package func knownCategories(matching filter: String?) -> [KnownCity] {
    definition.categories.map { Self.known($0, filter) } ?? []
  }

  package func categoryMeaning(_ code: String) -> String? {
    definition.categories?.table[code]?["name"]
  }

  private static func known(_ names: DeclaredNames, _ filter: String?) -> [KnownCity] {
    names.order.compactMap { name in
      let description = names.table[name]?["name"] ?? names.table[name]?["code"] ?? ""
      let wanted = filter.map {
        name.localizedCaseInsensitiveContains($0)
          || description.localizedCaseInsensitiveContains($0)
      }
      return wanted ?? true ? KnownCity(name: name, description: description) : nil
    }
  }

  package func requests(for search: Search, in city: CityRef?) -> [RequestSpec] {
    let values = StepRequests.values(for: search, in: city, definition: definition)
    let steps = StepRequests(definition: definition)
    if let pasted = search.url {
      guard let spec = definition.searchURL else { return [] }
      return steps.pastedRequest(pasted, spec: spec, values: values, city: city?.name).map {
        [$0]
      } ?? []
    }
    return steps.requests(step: 0, values: values, city: city?.name)
  }

  package func listings(from response: SourceResponse) throws -> ListingBatch {
    let index =
      definition.modes.count > 1
      ? definition.modes.firstIndex(of: response.request.mode)
        ?? Int(response.request.context["step"] ?? "0") ?? 0
      : 0
    guard definition.steps.indices.contains(index) else {
      throw SiteError("the request names step \(index + 1), which \(definition.file) does not have")
    }
    // The run passes only 2xx (its scheduler makes a 403 a block); a saved answer, read by
    // `inspect`, may be anything.
    if response.status == 403 || response.status == 429 {
      throw SiteError("the site refused the request (HTTP \(response.status))", isBlock: true)
    }
    guard response.status < 400 else {
      throw SiteError("the site answered HTTP \(response.status)")
    }
    let step = definition.steps[index]
    let reader = PageReader(
      definition: definition, spec: step.read, pageURL: response.finalURL,
      now: response.receivedAt ?? Date())
    let result = try reader.read(response.body)
    let notes = result.notes + (result.itemsNotFound.map { [step.read.itemsNote($0)] } ?? [])
    guard index + 1 < definition.steps.count else {
      return ListingBatch(listings: result.listings, notes: notes)
    }
    var values = StepRequests.values(from: response.request.context)
    for (name, list) in result.collected { values.lists["\(step.id ?? "").\(name)"] = list }
    let next = StepRequests(definition: definition).requests(
      step: index + 1, values: values, city: response.request.city)
    return ListingBatch(listings: [], notes: notes, followUps: next)
  }
}

extension SiteDefinition {
  /// The modes of ``DeclaredSite/modes``, one per step.
  package var modes: [String] {
    guard steps.count > 1 else { return ["page"] }
    return steps.enumerated().map { index, step in
      step.id ?? (index == steps.count - 1 ? "listings" : "step\(index + 1)")
    }
  }
}
