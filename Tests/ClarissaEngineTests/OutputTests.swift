import Channels
import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import Feeds
import FixtureSupport
import Foundation
import ListingStore
import Sites
import Testing

/// The Atom feeds and the HTML page a run writes.
@Suite(.serialized) struct OutputTests {
  @Test func outputsMakeTheirFoldersAndSayPlainlyWhatWentWrong() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "out-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let blocker = folder.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: blocker)
    let config = try #require(
      ConfigLoader.load(
        bytes: Array(
          try String(
            contentsOf: Fixtures.root.deletingLastPathComponent().appendingPathComponent(
              "searches.yaml"), encoding: .utf8
          ).utf8), name: "o.yaml", environment: [:], sites: Registry.sites,
        channels: ChannelRegistry.all
      ).config)
    var settings = SchedulerSettings()
    settings.delayOverride = 0
    let runner = Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(
        fetcher: try ReplayFetcher(
          folder: Fixtures.root.appendingPathComponent("replay/default").path),
        settings: settings),
      statePath: folder.appendingPathComponent("clarissa.db").path,
      outputs: OutputPaths(
        atomFolder: blocker.appendingPathComponent("feeds").path,
        htmlFile: folder.appendingPathComponent("not/yet/there/new.html").path))
    let result = try await runner.run(RunOptions(notifyFirstRun: true)).commit()
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("not/yet/there/new.html").path))
    #expect(result.outputProblems.count == 1)
    let problem = try #require(result.outputProblems.first)
    #expect(problem.hasPrefix("cannot write the Atom feeds in '\(blocker.path)/feeds': "))
    #expect(!problem.contains("could not be completed"), "the reason, not Foundation's filler")
  }

  static func run(folder: URL) async throws -> Config {
    let yaml =
      try String(
        contentsOf: Fixtures.root.deletingLastPathComponent().appendingPathComponent(
          "searches.yaml"), encoding: .utf8)
      + "\noutput:\n  atom: feeds\n  html: new.html\n  keep: 30\n"
    let config = try #require(
      ConfigLoader.load(
        bytes: Array(yaml.utf8), name: "o.yaml", environment: [:], sites: Registry.sites,
        channels: ChannelRegistry.all
      ).config)
    var settings = SchedulerSettings()
    settings.delayOverride = 0
    let fetcher = try ReplayFetcher(
      folder: Fixtures.root.appendingPathComponent("replay/default").path)
    let runner = Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: fetcher, settings: settings),
      statePath: folder.appendingPathComponent("clarissa.db").path,
      outputs: OutputPaths(
        atomFolder: folder.appendingPathComponent("feeds").path,
        htmlFile: folder.appendingPathComponent("new.html").path))
    let noon = ISO8601DateFormatter().date(from: "2026-05-03T19:00:00Z") ?? Date()
    let result = try await runner.run(RunOptions(now: noon, notifyFirstRun: true)).commit()
    #expect(result.outputProblems.isEmpty)
    return config
  }

  @Test func atomFeedsParseWithStableIdsAndOnePerSearch() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "out-\(UUID().uuidString)")
    let config = try await Self.run(folder: folder)
    for name in config.searches.map(\.name) + ["all"] {
      let path = folder.appendingPathComponent("feeds/\(name).xml")
      #expect(FileManager.default.fileExists(atPath: path.path), "\(name).xml")
    }
    let document = try FeedParser.parse(
      Array(try Data(contentsOf: folder.appendingPathComponent("feeds/ipads.xml"))))
    #expect(document.format == .atom1)
    #expect(document.problems.isEmpty, "well-formed, nothing repaired: \(document.problems)")
    #expect(document.items.count == 30, "output.keep")
    #expect(
      document.items.allSatisfy {
        $0.idSource == .guid && $0.id.hasPrefix("urn:clarissa:craigslist:")
      })
    #expect(document.items.first?.link?.hasPrefix("https://sfbay.craigslist.org/") == true)
    let all = try FeedParser.parse(
      Array(try Data(contentsOf: folder.appendingPathComponent("feeds/all.xml"))))
    #expect(all.items.count == 62, "30 ipads, 2 Arkansas plots, 30 apartments")
    #expect(Set(all.items.map(\.id)).count == 62, "entry ids are unique")
  }

  static var xmllint: String? { TestTools.path("xmllint") }

  @Test(
    .enabled(
      if: xmllint != nil || TestTools.underCI,
      "needs xmllint (Debian: libxml2-utils; .ci/run installs it)"))
  func atomPassesXmllint() async throws {
    let xmllint = try #require(Self.xmllint, "xmllint (Debian: libxml2-utils)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "out-\(UUID().uuidString)")
    _ = try await Self.run(folder: folder)
    for arguments in [
      ["--noout", folder.appendingPathComponent("feeds/all.xml").path],
      ["--html", "--noout", folder.appendingPathComponent("new.html").path],
    ] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: xmllint)
      process.arguments = arguments
      let errors = Pipe()
      process.standardError = errors
      try process.run()
      let complaints = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "xmllint \(arguments.joined(separator: " "))")
      // Debian's libxml2 parses HTML 4: it names the HTML5 elements the page uses, and nothing
      // else may be wrong.
      let messages = complaints.split(separator: "\n").compactMap { line in
        line.range(of: "parser error : ").map { String(line[$0.upperBound...]) }
      }
      let html5 = ["header", "section", "article", "main", "nav", "footer", "figure", "time"]
      let unexpected = messages.filter { message in
        !html5.contains { message == "Tag \($0) invalid" }
      }
      #expect(unexpected.isEmpty, "xmllint \(arguments.last ?? ""): \(unexpected)")
    }
  }

  @Test func theHTMLPageShowsCardsAndEscapesEverything() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "out-\(UUID().uuidString)")
    _ = try await Self.run(folder: folder)
    let html = try String(contentsOf: folder.appendingPathComponent("new.html"), encoding: .utf8)
    #expect(html.contains("<meta name=\"viewport\""))
    #expect(html.components(separatedBy: "<article class=\"card\">").count - 1 == 62)
    #expect(!html.contains("<script"), "no scripts")
    #expect(
      !html.contains("http://") || !html.contains("<link rel=\"stylesheet\""), "no external styles")
    #expect(html.contains("ipads <small>30 recent</small>"))
  }
}
