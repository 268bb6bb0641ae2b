internal import ArgumentParser
internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import ListingText
internal import Sites

/// `clarissa inspect`: read a saved response with a site adapter and print its listings.
struct Inspect: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Parse a saved response with a site adapter and print the listings.",
    discussion: """
      The tool for people who write or debug adapters: save what a site answered (curl, a \
      browser's "save as", or a run's --record folder) and see exactly what clarissa reads \
      from it. Nothing is fetched.

      The mode is guessed from the file when --mode is not given ('{' -> api, an RSS or RDF \
      root -> rss, otherwise html). --city tells the adapter which area the response is for \
      (Craigslist uses it to drop nearby-area rows and to know the currency); --param gives a \
      site parameter as a search would. Sites declared in sites/ beside the config \
      (--config, searches.yaml by default) are read too. A file that gives no listing exits 1, \
      naming the mode that does read it when another one does.

      With --search NAME the file is read as that search's answer (its site, city and \
      parameters), and each listing is then judged as its run would judge it: which filter \
      kept or dropped it, its price range, and whether it is new to the search (the state \
      database is read, never changed). A search tried offline, before its first run.

      Examples:
        clarissa inspect Fixtures/craigslist/sfbay-sss-sapi-1.json --site craigslist
        clarissa inspect page.html --site craigslist --mode html --city newyork/mnh
        clarissa inspect feed.xml --site feed --format json
        clarissa inspect sapi.json --site craigslist --param include_nearby=true
        clarissa inspect saved-page.html --search flats
      """
  )

  @Argument(help: "The saved response body.")
  var file: String

  @Option(help: ArgumentHelp("The site adapter (see 'clarissa sites').", valueName: "id"))
  var site = "craigslist"

  @Option(help: ArgumentHelp("How to read the file; guessed when left out.", valueName: "mode"))
  var mode: String?

  @Option(
    help: ArgumentHelp("The city the response is for, e.g. sfbay or sfbay/eby.", valueName: "city"))
  var city: String?

  @Option(
    name: .customLong("param"),
    help: ArgumentHelp(
      "A site parameter for reading the file, as in a search (repeatable): "
        + "--param include_nearby=true.", valueName: "name=value"))
  var parameters: [String] = []

  @Option(
    name: [.customShort("c"), .long],
    help: "The config whose own site definitions (its sites/ folder) to include.")
  var config = "searches.yaml"

  @Option(help: "Output format: text or json.")
  var format: OutputFormat = .text

  @Option(
    help: ArgumentHelp(
      "Read the file as this search's answer (its site, city, parameters) and judge each "
        + "listing as its run would.", valueName: "name"))
  var search: String?

  @Option(
    help: ArgumentHelp(
      "The URL the file was fetched from (makes relative links absolute).", valueName: "url"))
  var url: String?

  @Option(
    help: ArgumentHelp(
      "When the file was saved (ISO 8601), for dates written relative to then ('vor 3 Std.').",
      valueName: "time"))
  var now: String?

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  func run() async throws {
    let chosen = try search.map(chosenSearch)
    let sites = chosen?.sites ?? UserSites.load(forConfig: config).catalog
    let site = chosen?.search.site ?? self.site
    guard let adapter = sites.site(site) else {
      throw ValidationError(sites.unknownSite(site))
    }
    guard let data = FileManager.default.contents(atPath: file) else {
      Terminal.error("error: cannot read '\(file)'\n")
      throw ExitStatus.failure.exitCode
    }
    let body = Array(data)
    let guessedMode = mode ?? Self.guessMode(body, modes: adapter.modes)
    guard adapter.modes.contains(guessedMode) else {
      throw ValidationError(
        "site '\(site)' has no mode '\(guessedMode)' (modes: \(adapter.modes.joined(separator: ", ")))"
      )
    }
    guard now == nil || Run.parseDate(now ?? "") != nil else {
      throw ValidationError("--now takes an ISO 8601 time such as 2026-07-26T12:00:00Z")
    }
    var chosenMode = guessedMode
    do {
      var batch = try adapter.listings(
        from: try response(adapter, mode: chosenMode, body, search: chosen?.search))
      if batch.listings.isEmpty,
        let other = otherMode(adapter, besides: chosenMode, body, search: chosen?.search)
      {
        guard mode == nil else {
          Terminal.error(
            "\(file): error: no listing read as '\(chosenMode)'; read as '\(other.mode)' it "
              + "gives \(other.batch.listings.count): give --mode \(other.mode)\n")
          throw ExitStatus.failure.exitCode
        }
        Terminal.error(
          "note: read as '\(other.mode)': the guessed mode '\(chosenMode)' reads no listing from "
            + "it\(Self.followUpNote(batch))\n")
        (chosenMode, batch) = (other.mode, other.batch)
      }
      // Read as a run reads them: bounded and cleaned (the run's defaults).
      let (checked, bounded) = ListingCheck.answer(batch.listings, limits: Limits())
      for note in batch.notes + bounded { Terminal.error("note: \(SafeText.line(note))\n") }
      if !checked.isEmpty {
        Terminal.error(
          "note: \(Fingerprint.foldLine(checked, idsUnique: adapter.idsUnique))\n")
      }
      // Every listing is shown, so every description is made text.
      let listings = ListingDescription.resolve(checked)
      if let chosen {
        try await judge(listings, as: chosen)
        try Self.checkSomethingRead(batch, mode: chosenMode)
        return
      }
      switch format {
      case .json: Terminal.output(ListingJSON.encode(listings))
      case .text:
        Terminal.output(
          ListingText.render(
            listings, header: "\(listings.count) listings (\(site), \(chosenMode)) from \(file)"))
      }
      try Self.checkSomethingRead(batch, mode: chosenMode)
    } catch let error as SiteError {
      Terminal.error("\(file): error: \(error.message)\n")
      throw ExitStatus.sourcesFailed.exitCode
    }
  }

  /// `name=value` pairs read as the site declares each parameter.
  static func values(_ pairs: [String], _ site: any FeedSource) throws -> [String: ParameterValue] {
    var values: [String: ParameterValue] = [:]
    for pair in pairs {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      let names = site.parameters.map(\.name)
      guard parts.count == 2, let parameter = site.parameter(named: parts[0]) else {
        let name = parts.first ?? pair
        throw ValidationError(
          "--param '\(pair)': \(site.id) has no parameter '\(name)'"
            + Suggestions.hint(for: name, in: names)
            + (names.isEmpty ? "" : " (parameters: \(names.joined(separator: ", ")))"))
      }
      switch parameter.kind {
      case .bool:
        guard let flag = ["true": true, "false": false][parts[1]] else {
          throw ValidationError("--param \(parts[0]) takes true or false, not '\(parts[1])'")
        }
        values[parts[0]] = .bool(flag)
      case .integer:
        guard let number = Int(parts[1]) else {
          throw ValidationError("--param \(parts[0]) takes a whole number, not '\(parts[1])'")
        }
        values[parts[0]] = .integer(number)
      case .urls: values[parts[0]] = .urls([parts[1]])
      case .choices: values[parts[0]] = .words(parts[1].split(separator: ",").map(String.init))
      case .text, .choice: values[parts[0]] = .text(parts[1])
      }
    }
    return values
  }

  static func guessMode(_ body: [UInt8], modes: [String]) -> String {
    let head = String(decoding: body.prefix(2048), as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let guess: String
    if head.hasPrefix("{") {
      guess = "api"
    } else if head.contains("<rdf:RDF") || head.contains("<rss") || head.contains("<feed") {
      guess = "rss"
    } else {
      guess = "html"
    }
    return modes.contains(guess) ? guess : modes.first ?? guess
  }
}
