internal import ArgumentParser
internal import ClarissaConfig
internal import ClarissaCore
internal import Foundation
internal import Sites

/// `clarissa validate`: read the config, report every problem, summarize what would run.
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check the config file without touching the network.",
    discussion: """
      Reads the config, prints every problem it finds like a compiler does (file:line:column, \
      the line, a caret), then a short summary of what a run would do: searches x cities, \
      intervals, channels and quiet hours. Warnings do not fail validation unless --strict.

      Exit status: 0 when the config is valid, 2 when it has errors (or warnings, with \
      --strict); see README.md.

      No config yet? 'clarissa init' writes a commented starter searches.yaml, the same as \
      examples/starter.yaml.

      Examples:
        clarissa validate
        clarissa validate --config examples/starter.yaml
        clarissa validate --quiet && clarissa run
        clarissa validate -q --print-urls | cut -f4
      """
  )

  @Option(name: [.short, .long], help: ArgumentHelp("The config file to read.", valueName: "file"))
  var config = "searches.yaml"

  @Flag(name: [.short, .long], help: "Print problems only, no summary.")
  var quiet = false

  @Flag(help: "Treat warnings as errors (exit status 2 when there are any).")
  var strict = false

  @Flag(
    name: .customLong("print-urls"),
    help: "Print every request a run would make: search, city, mode and URL, tab-separated.")
  var printURLs = false

  func run() throws {
    try MissingConfig.check(config)
    let sites = UserSites.load(forConfig: config)
    let result = sites.loadConfig(environment: ProcessInfo.processInfo.environment)
    let renderer = DiagnosticRenderer(
      sources: result.sources, colored: Terminal.wantsColor(fileDescriptor: STDERR_FILENO))
    Terminal.error(renderer.render(result.diagnostics))
    let errors = result.diagnostics.filter { $0.severity == .error }.count
    let warnings = result.diagnostics.filter { $0.severity == .warning }.count
    guard let loaded = result.config, !(strict && warnings > 0) else {
      Terminal.error("\(config): \(count(errors, "error")), \(count(warnings, "warning"))\n")
      throw ExitStatus.configInvalid.exitCode
    }
    if !quiet {
      Terminal.output(ConfigSummary(config: loaded, file: config, warnings: warnings).text)
    }
    if printURLs { Terminal.output(Self.requestLines(loaded, sites: sites.catalog)) }
  }

  /// One line per request of every enabled search, in config order.
  static func requestLines(_ config: Config, sites: SiteCatalog) -> String {
    var lines: [String] = []
    for search in config.searches where search.enabled {
      guard let site = sites.site(search.site) else { continue }
      for request in site.requests(for: search) {
        lines.append(
          [search.name, request.city ?? "-", request.mode, request.url].joined(separator: "\t"))
      }
    }
    return lines.map { $0 + "\n" }.joined()
  }

  private func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
}
