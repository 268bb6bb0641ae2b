internal import ArgumentParser
internal import ClarissaCore
internal import Foundation
internal import Sites

/// `clarissa sites [list]`: the sites, their status and parameters; a site's cities.
struct SitesList: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the sites, their status, parameters and cities (the default).",
    discussion: """
      Examples:
        clarissa sites                          # every adapter and its status
        clarissa sites craigslist               # its parameters, with examples
        clarissa sites craigslist --cities bay  # areas whose name contains 'bay'
        clarissa sites craigslist --cities      # all 707 areas and their subareas
        clarissa sites craigslist --categories bike  # category codes about bikes
      """
  )

  @Argument(help: "A site id for details.")
  var site: String?

  @Argument(
    help: "With --cities or --categories: only entries whose name or description contains this.")
  var filter: String?

  @Flag(help: "List the site's cities (areas and subareas).")
  var cities = false

  @Flag(help: "List the site's category codes and what each means.")
  var categories = false

  @Option(
    name: [.customShort("c"), .long], help: "The config whose own site definitions to include.")
  var config = "searches.yaml"

  @Option(help: "The list as text, json (the catalogue) or markdown (docs/sites.md).")
  var format: Run.ReportFormat = .text

  func validate() throws {
    if cities, categories {
      throw ValidationError("give --cities or --categories, not both")
    }
    if cities || categories, site == nil {
      throw ValidationError(
        "\(listFlag) needs a site, as in 'clarissa sites craigslist \(listFlag) \(example)'")
    }
    if format != .text, cities || categories {
      throw ValidationError(
        "--format goes with the list of sites or one site, not with \(listFlag)")
    }
    if filter != nil, !cities, !categories {
      throw ValidationError(
        "a filter word goes with --cities or --categories, as in "
          + "'clarissa sites craigslist --cities bay'")
    }
  }

  private var listFlag: String { categories ? "--categories" : "--cities" }
  private var example: String { categories ? "bike" : "bay" }

  func run() throws {
    // The shipped sites and the user's own (`sites/` beside the config), read once.
    let sites = UserSites.load(forConfig: config).catalog
    guard var id = site else {
      Terminal.output(Self.list(sites.all, format: format))
      return
    }
    var word = filter
    // `sites --cities bay`: 'bay' is the filter word, not a site, when one site's list has it.
    let listing = Self.sitesWithList(sites, categories: categories).filter {
      !(categories ? $0.knownCategories(matching: id) : $0.knownCities(matching: id)).isEmpty
    }
    if sites.site(id) == nil, cities || categories, word == nil, listing.count == 1,
      let only = listing.first
    {
      Terminal.error(
        "'\(id)' is not a site; listing \(only.id) \(categories ? "categories" : "cities") "
          + "matching it (in full: clarissa sites \(only.id) \(listFlag) \(id))\n")
      word = id
      id = only.id
    }
    guard let adapter = sites.site(id) else {
      throw ValidationError(sites.unknownSite(id))
    }
    if cities || categories {
      try list(adapter, word: word)
      return
    }
    Terminal.output(format == .text ? Self.details(adapter) : Self.list([adapter], format: format))
  }

  /// The sites as a list in `format`.
  static func list(_ sites: [any FeedSource], format: Run.ReportFormat) -> String {
    switch format {
    case .text: TextTable.render(sites.map(SiteCatalogue.row))
    case .json: SiteCatalogue.json(sites)
    case .markdown: SiteCatalogue.markdown(sites)
    }
  }

  /// Cities or categories, aligned; nothing found is an error (exit 1, like grep) with the
  /// closest names.
  private func list(_ adapter: any FeedSource, word: String?) throws {
    let what = categories ? "category" : "city"
    let matches =
      categories ? adapter.knownCategories(matching: word) : adapter.knownCities(matching: word)
    let width = matches.map(\.name.count).max() ?? 0
    Terminal.output(
      matches.map {
        $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.description
      }.joined(separator: "\n") + (matches.isEmpty ? "" : "\n"))
    guard matches.isEmpty else { return }
    if word == nil {
      Terminal.error("\(adapter.id) has no \(categories ? "category" : "city") list\n")
      throw ExitStatus.failure.exitCode
    }
    let everything =
      categories ? adapter.knownCategories(matching: nil) : adapter.knownCities(matching: nil)
    let words = Set(
      everything.flatMap { entry in
        [entry.name]
          + entry.description.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init)
      })
    let close = Suggestions.closest(to: word ?? "", in: words.filter { $0.count >= 4 }, limit: 2)
    let hint =
      close.isEmpty
      ? "; try a shorter word, or leave the word out to list them all"
      : "; did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"
    Terminal.error("no \(adapter.id) \(what) matches '\(word ?? "")'\(hint)\n")
    throw ExitStatus.failure.exitCode
  }

  /// Sites that have a list of cities (or of categories).
  static func sitesWithList(_ sites: SiteCatalog, categories: Bool) -> [any FeedSource] {
    sites.all.filter {
      !(categories ? $0.knownCategories(matching: nil) : $0.knownCities(matching: nil)).isEmpty
    }
  }

  static func details(_ site: any FeedSource) -> String {
    var lines = [
      "\(site.displayName) (\(site.id)): \(site.status.rawValue)", site.summary,
      "kind: \(site.kind.rawValue); countries: "
        + (site.countries.isEmpty ? "any" : site.countries.joined(separator: ", ")),
      SiteCatalogue.wallText(site.wall),
      "modes: \(site.modes.joined(separator: ", "))",
      "cities: " + (site.cities == .required ? "required" : "none (the site takes URLs)"),
      "politeness: \(Int(site.politeness.minimumDelay))s between requests to one host (+ up to \(Int(site.politeness.jitter))s), "
        + "\(site.politeness.concurrencyPerHost) at a time, searches at most every \(Interval(seconds: site.politeness.minimumInterval))",
      "parameters:",
    ]
    for parameter in site.parameters {
      let fallback =
        parameter.defaultValue.map { ", default \($0)" }
        ?? (parameter.isRequired ? ", required" : "")
      lines.append("  \(parameter.name): \(parameter.typeDescription)\(fallback)")
      lines.append("      \(parameter.summary); e.g. \(parameter.name): \(parameter.example)")
    }
    if !site.searchURLExamples.isEmpty {
      lines.append("search pages it reads from 'url:' (pasted from the browser), and the request:")
      for example in site.searchURLExamples {
        lines += ["  url: \(example.url)", "      asks \(example.request)"]
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
