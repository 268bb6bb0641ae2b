import Channels
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

  /// The site's folder under Sites/: the one holding its definition (`<id>.site.yaml`), else
  /// its id in words (`craigslist` -> `Craigslist`, `wg-gesucht` -> `WgGesucht`).
  static func folder(_ id: String) -> String {
    let sites = Fixtures.root.deletingLastPathComponent().appendingPathComponent("Sites")
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: sites.path)) ?? []
    if let declared = folders.sorted().first(where: {
      FileManager.default.fileExists(
        atPath: sites.appendingPathComponent("\($0)/\(id).site.yaml").path)
    }) {
      return declared
    }
    return id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
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
    // Where the recordings come from: README.md, or SOURCES.md for recordings copied from
    // other repositories (repository, commit, path, licence).
    let notes = ["README.md", "SOURCES.md"].map {
      Fixtures.root.appendingPathComponent("\(id)/\($0)")
    }
    #expect(
      notes.contains { FileManager.default.fileExists(atPath: $0.path) },
      "Fixtures/\(id)/README.md or SOURCES.md")
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
      environment: [:], sites: Registry.sites, channels: ChannelRegistry.all)
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
