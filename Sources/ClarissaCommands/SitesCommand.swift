import ArgumentParser
import ClarissaCore
import Sites

/// `clarissa sites`: the adapters, their status and parameters; a site's cities.
struct SitesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sites",
    abstract: "List the site adapters, their status, parameters and cities.",
    discussion: """
      Examples:
        clarissa sites                          # every adapter and its status
        clarissa sites craigslist               # its parameters, with examples
        clarissa sites craigslist --cities bay  # areas whose name contains 'bay'
        clarissa sites craigslist --cities      # all 707 areas and their subareas
      """
  )

  @Argument(help: "A site id for details.")
  var site: String?

  @Argument(help: "With --cities: only cities whose name or description contains this.")
  var filter: String?

  @Flag(help: "List the site's cities (areas and subareas).")
  var cities = false

  func validate() throws {
    if cities, site == nil {
      throw ValidationError("--cities needs a site, as in 'clarissa sites craigslist --cities bay'")
    }
    if filter != nil, !cities {
      throw ValidationError(
        "a filter word goes with --cities, as in 'clarissa sites craigslist --cities bay'")
    }
  }

  func run() throws {
    guard let id = site else {
      Terminal.output(Registry.sites.all.map(Self.summaryLine).joined(separator: "\n") + "\n")
      return
    }
    guard let adapter = Registry.sites.site(id) else {
      let hint = Suggestions.hint(for: id, in: Registry.sites.ids)
      throw ValidationError(
        "unknown site '\(id)'\(hint) (sites: \(Registry.sites.ids.joined(separator: ", ")))")
    }
    if cities {
      let matches = adapter.knownCities(matching: filter)
      let width = matches.map(\.name.count).max() ?? 0
      Terminal.output(
        matches.map {
          $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.description
        }.joined(separator: "\n") + (matches.isEmpty ? "" : "\n"))
      if matches.isEmpty { Terminal.error("no \(id) city matches '\(filter ?? "")'\n") }
      return
    }
    Terminal.output(Self.details(adapter))
  }

  static func summaryLine(_ site: any FeedSource) -> String {
    "\(site.id.padding(toLength: 11, withPad: " ", startingAt: 0)) \(site.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(site.summary)"
  }

  static func details(_ site: any FeedSource) -> String {
    var lines = [
      "\(site.displayName) (\(site.id)): \(site.status.rawValue)", site.summary,
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
    return lines.joined(separator: "\n") + "\n"
  }
}
