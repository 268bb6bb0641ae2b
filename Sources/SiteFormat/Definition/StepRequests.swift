package import ClarissaCore
internal import Foundation

/// The requests of one step, from a search's values (and what earlier steps collected).
package struct StepRequests {
  package let definition: SiteDefinition

  /// Prefix of the search's values kept in a request's context, for the steps after it.
  package static let valuePrefix = "value."

  package func requests(step index: Int, values: TemplateValues, city: String?) -> [RequestSpec] {
    let step = definition.steps[index]
    // A list used in the path would need one request per value: no definition needs that yet,
    // so a step with no values collected (nothing found) makes no request.
    if index > 0, values.lists.values.contains(where: \.isEmpty) { return [] }
    var url = step.url.render(values, encode: true)
    var query: [(String, String)] = []
    for (name, template) in step.query {
      for value in template.renderAll(values) where !value.isEmpty { query.append((name, value)) }
    }
    if !query.isEmpty {
      url += (url.contains("?") ? "&" : "?") + URLQuery.encode(query)
    }
    return [request(step: index, url: url, values: values, city: city)]
  }

  /// The first request made from a pasted search URL: the spec's URL from the path's parts,
  /// its own query, the pasted pairs it keeps, then what the site sets.
  package func pastedRequest(
    _ pasted: SearchURL, spec: SearchURLSpec, values: TemplateValues, city: String?
  )
    -> RequestSpec?
  {
    guard let match = spec.match(pasted) else { return nil }
    var values = values
    values.texts["url.path"] = match.path
    for (name, value) in match.groups { values.texts["url.\(name)"] = value }
    let rendered = spec.request.render(values, encode: true)
    let base = rendered.split(separator: "?", maxSplits: 1).map(String.init)
    var query = QueryPairs(encoded: base.count > 1 ? base[1] : "")
    query.overlay(spec.query(pasted))
    for (name, value) in spec.set { query.set(name, value) }
    return request(step: 0, url: query.appended(to: base.first ?? ""), values: values, city: city)
  }

  private func request(step index: Int, url: String, values: TemplateValues, city: String?)
    -> RequestSpec
  {
    let step = definition.steps[index]
    var headers: [String: String] = [:]
    for (name, template) in step.headers { headers[name] = template.render(values, encode: false) }
    var context = Self.context(values)
    context["step"] = String(index)
    return RequestSpec(
      url: url, headers: headers, mode: definition.modes[index], city: city, context: context,
      allowsConditionalGET: step.method == "GET", method: step.method,
      body: step.body.map { Array($0.render(values, encode: false).utf8) })
  }

  /// A search's values in one city: its query, city and category with their table columns,
  /// price, rooms, bedrooms and floor area bounds, and the site's parameters (defaults filled
  /// in).
  package static func values(for search: Search, in city: CityRef?, definition: SiteDefinition)
    -> TemplateValues
  {
    var values = TemplateValues()
    values.texts["query"] = search.query ?? ""
    if let city {
      values.texts["city"] = city.name
      for (column, value) in definition.cities.table[city.name] ?? [:] {
        values.texts["city.\(column)"] = value
      }
    }
    if let category = search.category ?? definition.categories?.defaultName {
      values.texts["category"] = category
      for (column, value) in definition.categories?.table[category] ?? [:] {
        values.texts["category.\(column)"] = value
      }
    }
    values.texts["price.min"] = search.price?.min.map(Self.number) ?? ""
    values.texts["price.max"] = search.price?.max.map(Self.number) ?? ""
    // The search's fact bounds, for sites that filter by them (floor areas in square metres).
    let facts = search.facts
    for (name, range) in [
      ("rooms", facts.rooms), ("bedrooms", facts.bedrooms), ("floor_area", facts.floorArea),
    ] {
      values.texts["\(name).min"] = range?.min.map(Self.number) ?? ""
      values.texts["\(name).max"] = range?.max.map(Self.number) ?? ""
    }
    for declared in definition.parameters {
      let name = declared.name
      values.texts[name] = search.parameters[name]?.description ?? declared.defaultValue ?? ""
    }
    return values
  }

  package static func number(_ value: Double) -> String {
    CheckedNumber.text(value)
  }

  package static func context(_ values: TemplateValues) -> [String: String] {
    var context: [String: String] = [:]
    for (name, value) in values.texts { context[valuePrefix + name] = value }
    return context
  }

  package static func values(from context: [String: String]) -> TemplateValues {
    var values = TemplateValues()
    for (key, value) in context where key.hasPrefix(valuePrefix) {
      values.texts[String(key.dropFirst(valuePrefix.count))] = value
    }
    return values
  }
}
