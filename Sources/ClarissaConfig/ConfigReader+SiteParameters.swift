internal import ClarissaCore
internal import Foundation
internal import YAML

/// A site's own parameters, checked against its declarations.
extension ConfigReader {
  func readParameters(
    _ scope: SearchLookup, site: any FeedSource, nameNode: Node, category: String? = nil
  ) -> [String: ParameterValue] {
    var values = declaredDefaults(of: site)
    for parameter in site.parameters {
      guard let field = scope.field(parameter.name) else {
        if parameter.isRequired {
          error(
            "\(scope.context) on site '\(site.id)' needs '\(parameter.name)': "
              + "\(parameter.summary), e.g. \(parameter.example)", at: nameNode)
        }
        continue
      }
      // A value that does not read leaves the parameter unset, its default included.
      values[parameter.name] = readParameter(parameter, field)
      // A filter the search's category ignores (bedrooms on bicycles) is sent for nothing.
      if let caution = site.caution(parameter: parameter.name, category: category) {
        warning("\(caution) ('\(parameter.name)' in \(field.origin))", at: field.node)
      }
    }
    return values
  }

  /// The values a site's parameters take where a search does not set them, read from the
  /// site's declarations once per load (not once per search).
  private func declaredDefaults(of site: any FeedSource) -> [String: ParameterValue] {
    if let known = parameterDefaults[site.id] { return known }
    var values: [String: ParameterValue] = [:]
    for parameter in site.parameters {
      if let text = parameter.defaultValue, let value = Self.parse(text, as: parameter.kind) {
        values[parameter.name] = value
      }
    }
    parameterDefaults[site.id] = values
    return values
  }

  private func readParameter(_ parameter: SiteParameter, _ field: Field) -> ParameterValue? {
    let what = "'\(parameter.name)' in \(field.origin)"
    let value: ParameterValue?
    switch parameter.kind {
    case .text: value = expandedString(field.node, what).map(ParameterValue.text)
    case .bool: value = bool(field.node, what).map(ParameterValue.bool)
    case .integer(let range):
      value = integer(field.node, what, in: range).map(ParameterValue.integer)
    case .choice(let words):
      value = word(field.node, what, among: words).map(ParameterValue.text)
    case .choices(let words): value = chosenWords(field.node, what, among: words)
    case .urls: value = urls(field.node, what).map(ParameterValue.urls)
    }
    if case .text(let text) = value, let caution = parameter.cautions[text] {
      warning("\(caution) (\(what))", at: field.node)
    }
    return value
  }

  /// One or more of a fixed list of words, each checked with a did-you-mean; duplicates once.
  private func chosenWords(_ node: Node, _ what: String, among allowed: [String])
    -> ParameterValue?
  {
    let items = node.sequence ?? [node]
    var chosen: [String] = []
    for item in items {
      guard let text = word(item, "an entry of \(what)", among: allowed) else { continue }
      if !chosen.contains(text) { chosen.append(text) }
    }
    if items.isEmpty {
      let choices = allowed.joined(separator: ", ")
      error("\(what) lists nothing; give one or more of \(choices)", at: node)
    }
    return chosen.isEmpty ? nil : .words(chosen)
  }

  /// One or more http(s) URLs with a host.
  private func urls(_ node: Node, _ what: String) -> [String]? {
    let items = node.sequence ?? [node]
    var urls: [String] = []
    for item in items {
      guard let text = expandedString(item, "an entry of \(what)") else { continue }
      guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
        scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
      else {
        error("'\(text)' in \(what) is not an http or https URL", at: item)
        continue
      }
      urls.append(text)
    }
    if urls.isEmpty, items.isEmpty { error("\(what) lists no URLs", at: node) }
    return urls.isEmpty ? nil : urls
  }

  /// A declared default, written as text in the site's declaration.
  static func parse(_ text: String, as kind: SiteParameter.Kind) -> ParameterValue? {
    switch kind {
    case .text, .choice: .text(text)
    case .bool: text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
    case .integer: Int(text).map(ParameterValue.integer)
    case .urls: .urls([text])
    case .choices: .words([text])
    }
  }
}
