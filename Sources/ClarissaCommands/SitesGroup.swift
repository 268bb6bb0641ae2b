internal import ArgumentParser
internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import SiteFormat
internal import Sites

/// `clarissa sites`: list the sites (the default), check a definition, start a new one.
struct SitesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sites",
    abstract: "List the sites; check or start a site definition.",
    discussion: """
      Examples:
        clarissa sites                          # every site and its status
        clarissa sites craigslist               # its parameters, with examples
        clarissa sites craigslist --cities bay  # areas whose name contains 'bay'
        clarissa sites craigslist --categories bike  # category codes about bikes
        clarissa sites new swapboard            # sites/swapboard.yaml, a commented start
        clarissa sites check sites/swapboard.yaml --sample page.html
      A definition in the sites/ folder beside searches.yaml is a site like the built-in ones \
      (docs/adding-a-site.md).
      """,
    subcommands: [SitesList.self, SitesCheck.self, SitesNew.self],
    defaultSubcommand: SitesList.self
  )
}

/// `clarissa sites check FILE [--sample RESPONSE]`.
struct SitesCheck: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Check a site definition, and read a saved answer with it field by field.",
    discussion: """
      Without --sample: every mistake of the definition at its line and column (exit 2). \
      With --sample: each item's fields as read, then per field how many items it found \
      something in; a field that found nothing is a warning at its line. A sample that gives \
      no listing exits 1 (an 'items' path that finds nothing says what its parent holds).

      Examples:
        clarissa sites check sites/swapboard.yaml
        clarissa sites check sites/swapboard.yaml --sample page.html --url https://...
        clarissa sites check Sites/Flatfox/flatfox.site.yaml --sample pins.json --mode pins
      """)

  @Argument(help: "The site definition (YAML).")
  var file: String

  @Option(help: "A saved answer of the site (a page, a JSON file) to read with the definition.")
  var sample: String?

  @Option(help: "Which request the sample answers, for a site of several (see 'modes').")
  var mode: String?

  @Option(help: "The URL the sample came from (relative links are resolved against it).")
  var url: String?

  @Option(help: "When the sample was saved (ISO 8601), for dates written as 'vor 3 Std.'.")
  var now: String?

  func run() throws {
    var body: [UInt8]?
    if let sample {
      guard let data = FileManager.default.contents(atPath: sample) else {
        throw ValidationError("cannot read the sample '\(sample)'")
      }
      body = Array(data)
    }
    let time = try now.map { text in
      guard let date = Run.parseDate(text) else {
        throw ValidationError("--now takes an ISO 8601 time such as 2026-07-26T12:00:00Z")
      }
      return date
    }
    let report = DefinitionCheck.run(
      definitionAt: file, sample: body, mode: mode, url: url, now: time ?? Date())
    let sources = [file: (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""]
    let renderer = DiagnosticRenderer(
      sources: sources, colored: Terminal.wantsColor(fileDescriptor: STDERR_FILENO))
    Terminal.output(report.text)
    if !report.listings.isEmpty {
      // What a run would make of the answer: folds that need evidence, said with their reason.
      Terminal.output(
        Fingerprint.foldLine(report.listings, idsUnique: report.idsUnique) + "\n")
    }
    Terminal.error(renderer.render(report.diagnostics))
    if !report.definitionReads { throw ExitStatus.configInvalid.exitCode }
    if !report.passed || report.diagnostics.hasErrors { throw ExitStatus.failure.exitCode }
  }
}

/// `clarissa sites new NAME`.
struct SitesNew: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "new",
    abstract: "Write a commented starting definition for a new site.",
    discussion: """
      Writes sites/NAME.yaml beside the config (never over a file that exists). Edit it, save \
      an answer of the site, and run 'clarissa sites check sites/NAME.yaml --sample FILE' \
      until every field finds what it should; then search it with 'site: NAME'.
      """)

  @Argument(help: "The new site's id: lower case letters, digits and '-'.")
  var name: String

  @Option(name: [.customShort("c"), .long], help: "The config beside which sites/ is.")
  var config = "searches.yaml"

  func validate() throws {
    guard name.range(of: "^[a-z][a-z0-9-]{1,39}$", options: .regularExpression) != nil else {
      throw ValidationError(
        "'\(name)' is not a site id: lower case letters, digits and '-', starting with a letter")
    }
  }

  func run() throws {
    let folder = ((config as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent("sites")
    let path = (folder as NSString).appendingPathComponent("\(name).yaml")
    guard !FileManager.default.fileExists(atPath: path) else {
      throw ValidationError("'\(path)' exists; choose another name or edit it")
    }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try StarterSite.text(id: name).write(toFile: path, atomically: true, encoding: .utf8)
    Terminal.output(
      "wrote \(path)\nnext: save an answer of the site, then\n"
        + "  clarissa sites check \(path) --sample PAGE --url URL\n")
  }
}
