import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

/// Every registered site carries what the project asks of an adapter: a README, recorded
/// fixtures for each of its modes with golden listings, parameter examples that validate, and
/// requests that a run can make. (Like SwiftLint's rule examples, checked for every rule.)
@Suite struct RegistryTests {
  static let sites = Registry.sites.all.map(\.id)

  /// `craigslist` -> `Craigslist`, `wg-gesucht` -> `WgGesucht`.
  static func folder(_ id: String) -> String {
    id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  @Test func siteIDsAreUniqueAndLowerCase() {
    #expect(Set(Self.sites).count == Self.sites.count)
    #expect(Self.sites.allSatisfy { $0 == $0.lowercased() && !$0.isEmpty })
  }

  @Test(arguments: sites)
  func hasReadmes(id: String) {
    let repository = Fixtures.root.deletingLastPathComponent()
    let siteReadme = repository.appendingPathComponent("Sites/\(Self.folder(id))/README.md")
    #expect(
      FileManager.default.fileExists(atPath: siteReadme.path), "Sites/\(Self.folder(id))/README.md")
    let fixtureReadme = Fixtures.root.appendingPathComponent("\(id)/README.md")
    #expect(FileManager.default.fileExists(atPath: fixtureReadme.path), "Fixtures/\(id)/README.md")
  }

  @Test(arguments: sites)
  func hasGoldenFixturesForEveryMode(id: String) throws {
    let site = try #require(Registry.sites.site(id))
    let cases = SiteCase.all(for: id)
    #expect(!cases.isEmpty, "Fixtures/\(id)/cases.json")
    #expect(!site.modes.isEmpty)
    for mode in site.modes {
      #expect(
        cases.contains { $0.mode == mode && $0.expected != nil },
        "no golden fixture for mode '\(mode)'")
    }
    for fixture in cases {
      #expect(site.modes.contains(fixture.mode), "unknown mode '\(fixture.mode)'")
    }
  }

  @Test(arguments: sites)
  func parameterExamplesValidate(id: String) throws {
    let site = try #require(Registry.sites.site(id))
    var lines = [
      "version: 1", "searches:", "  - name: example", "    site: \(id)", "    interval: 1h",
    ]
    if site.cities == .required {
      let city = site.knownCities(matching: nil).first?.name ?? "example"
      lines.append("    cities: [\(city)]")
    }
    for parameter in site.parameters {
      #expect(!parameter.example.isEmpty && !parameter.summary.isEmpty, "\(parameter.name)")
      lines.append("    \(parameter.name): \(Self.yaml(parameter))")
    }
    let result = ConfigLoader.load(
      bytes: Array(lines.joined(separator: "\n").utf8), name: "\(id)-examples.yaml",
      environment: [:], sites: Registry.sites)
    let rendered = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
    #expect(!result.diagnostics.hasErrors, "\(rendered)")
    let search = try #require(result.config?.searches.first)
    let cities: [CityRef?] = site.cities == .required ? search.cities.map { $0 } : [nil]
    for city in cities {
      let requests = site.requests(for: search, in: city)
      #expect(!requests.isEmpty)
      #expect(requests.allSatisfy { $0.url.hasPrefix("https://") && site.modes.contains($0.mode) })
    }
  }

  /// The example as YAML: lists for URLs, plain for booleans and numbers, quoted text.
  static func yaml(_ parameter: SiteParameter) -> String {
    switch parameter.kind {
    case .urls: "[\(parameter.example)]"
    case .bool, .integer, .choices: parameter.example
    case .text, .choice: "'\(parameter.example)'"
    }
  }
}
