internal import ClarissaCore
internal import Foundation

/// The catalogue of sites, from what each declares (countries, kind, wall, samples): the lines
/// of `clarissa sites`, what `clarissa sites NAME` says of its wall, `--format json` and
/// `--format markdown` (docs/sites.md, and the countries line README.md holds).
enum SiteCatalogue {
  /// One row per site: id, status, kind, countries, wall, summary (``TextTable`` aligns them,
  /// the id column as wide as the longest id: an id is never cut).
  static func row(_ site: any FeedSource) -> [String] {
    [
      site.id, site.status.rawValue, site.kind.rawValue, shortCountries(site.countries),
      site.wall.rawValue, site.summary,
    ]
  }

  /// `DE,AT,CH`, `US +70` for a long list, `any` for none.
  static func shortCountries(_ codes: [String]) -> String {
    guard !codes.isEmpty else { return "any" }
    guard codes.count > 3 else { return codes.joined(separator: ",") }
    return codes.prefix(2).joined(separator: ",") + " +\(codes.count - 2)"
  }

  /// What is known of a site's wall and what a run does when it meets it.
  static func wallText(_ wall: SiteWall) -> String {
    switch wall {
    case .none:
      return "wall: none known; any vendor wall's page (DataDome, Cloudflare, Akamai, "
        + "PerimeterX, Imperva) is still recognised and reported as 'blocked by ...'"
    case .captcha, .login, .tlsFingerprint:
      return "wall: \(wall.rawValue): the site answers plain clients with \(wall.vendor); "
        + "clarissa does not get past it (no captcha solving, no logging in for you, no "
        + "disguise): expect failed runs, and open the search in a browser"
    default:
      return "wall: \(wall.rawValue): the site is known to answer with \(wall.vendor)'s "
        + "challenge; a run that meets it says 'blocked by \(wall.vendor)', the host cools down "
        + "(6 h) and clarissa does not solve challenges, disguise itself or switch addresses: "
        + "wait, run the search less often, or open it in a browser"
    }
  }

  /// The facts some sample of the site carries, in ``SiteSample/factNames`` order.
  static func facts(_ site: any FeedSource) -> [String] {
    let found = Set(site.samples.flatMap(\.facts))
    return SiteSample.factNames.filter(found.contains)
  }

  /// `clarissa sites --format json`: `{"schema": 1, "sites": [...]}`, keys sorted.
  static func json(_ sites: [any FeedSource]) -> String {
    let entries: [[String: Any]] = sites.map { site in
      [
        "id": site.id, "name": site.displayName, "status": site.status.rawValue,
        "summary": site.summary, "countries": site.countries, "kind": site.kind.rawValue,
        "wall": site.wall.rawValue, "facts": facts(site),
        "samples": site.samples.map { ["file": $0.file, "facts": $0.facts] },
      ]
    }
    let object: [String: Any] = ["schema": 1, "sites": entries]
    let data =
      (try? JSONSerialization.data(
        withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
      ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// The line README.md holds between `<!-- countries -->` markers.
  /// A site of a few countries names them; one of many (Craigslist's areas in 78) is counted
  /// apart, so that the line says where the sites of a country are.
  static func countriesLine(_ sites: [any FeedSource]) -> String {
    let few = sites.filter { $0.countries.count <= 20 }
    let codes = Set(few.flatMap(\.countries)).sorted()
    let wide = sites.filter { $0.countries.count > 20 }.map {
      "\($0.displayName)'s areas in \($0.countries.count) countries"
    }
    return "The shipped sites serve \(codes.count) countries: \(codes.joined(separator: ", "))"
      + (wide.isEmpty ? "" : "; besides, " + wide.joined(separator: ", "))
      + " (docs/sites.md says which site serves which)."
  }

  /// `clarissa sites --format markdown`: docs/sites.md.
  static func markdown(_ sites: [any FeedSource]) -> String {
    var lines = [
      "# Sites", "",
      "Written by `clarissa sites --format markdown` from what each site declares (`countries:`, "
        + "`kind:`, `wall:` and `samples:` in a definition, the same in a Swift adapter); "
        + "`SiteCatalogueTests` fails when this file is stale (`CLARISSA_RECORD=1` rewrites it). "
        + "`clarissa sites --format json` gives the same as JSON. The facts are those some "
        + "listing read from the site's samples has (`SiteSampleTests` checks them); a wall is "
        + "the bot wall the site is known to answer with (docs/run-report.md says what a run "
        + "does when it meets one).", "",
      "| site | name | status | kind | countries | wall | facts its samples carry | samples |",
      "|---|---|---|---|---|---|---|---|",
    ]
    for site in sites {
      let samples = site.samples.map { "`\($0.file)`" }.joined(separator: ", ")
      let facts = facts(site)
      lines.append(
        "| `\(site.id)` | \(site.displayName) | \(site.status.rawValue) | \(site.kind.rawValue) | "
          + "\(site.countries.isEmpty ? "any" : site.countries.joined(separator: ", ")) | "
          + "\(site.wall.rawValue) | \(facts.isEmpty ? "none" : facts.joined(separator: ", ")) | "
          + "\(samples.isEmpty ? "none recorded" : samples) |")
    }
    lines += ["", "## Countries", "", countriesLine(sites), ""]
    lines += ["| country | sites |", "|---|---|"]
    let codes = Set(sites.flatMap(\.countries)).sorted()
    for code in codes {
      let serving = sites.filter { $0.countries.contains(code) }.map(\.id)
      lines.append("| \(code) | \(serving.joined(separator: ", ")) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
