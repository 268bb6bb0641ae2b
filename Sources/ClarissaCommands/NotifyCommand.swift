internal import ArgumentParser
internal import Channels
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Curl
internal import Foundation
internal import ListingStore
internal import Sites

/// `clarissa notify test CHANNEL`: send a sample listing through one channel.
struct NotifyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notify",
    abstract: "Work with notification channels.",
    subcommands: [Test.self]
  )

  struct Test: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Send a sample listing through a channel, to check it reaches you.",
      discussion: """
        Uses the channel exactly as a run would (its URL, digest setting and templates) with a \
        made-up listing. Exit status 0 when the channel accepted it, 4 when it did not.

        Examples:
          clarissa notify test phone
          NTFY_TOPIC=deals-test clarissa notify test phone --config ~/ads/searches.yaml
        """
    )

    @Argument(help: "The channel's name in the config.")
    var channel: String

    @Option(name: [.short, .long], help: ArgumentHelp("The config file.", valueName: "file"))
    var config = "searches.yaml"

    func run() async throws {
      try MissingConfig.check(config)
      let environment = ProcessInfo.processInfo.environment
      let loaded = UserSites.load(forConfig: config).loadConfig(environment: environment)
      guard let configuration = loaded.config else {
        Terminal.error(DiagnosticRenderer(sources: loaded.sources).render(loaded.diagnostics))
        throw ExitStatus.configInvalid.exitCode
      }
      guard let target = configuration.channels[channel] else {
        let names = configuration.channels.keys.sorted()
        Terminal.error(
          "error: no channel named '\(channel)'" + Suggestions.hint(for: channel, in: names)
            + " (channels: \(names.isEmpty ? "none" : names.joined(separator: ", ")))\n")
        throw ExitStatus.usage.exitCode
      }
      let listing = Self.sample()
      let search = Search(name: "clarissa-test", site: "craigslist")
      if target.kind == .stdout {
        Terminal.output(
          RunReport.text(
            RunResult.sample(listing, search: search.name),
            colored: Terminal.wantsColor(fileDescriptor: STDOUT_FILENO),
            listingsOnly: true))
        return
      }
      let sender = ChannelFactory.sender(
        for: target,
        fetcher: CurlFetcher(limits: FetchLimits(timeout: 30, maxBytes: 1 << 20)),
        environment: environment, baseDirectory: (config as NSString).deletingLastPathComponent,
        timeout: configuration.http.timeout.timeInterval,
        maxRetryWait: configuration.http.timeout.timeInterval,
        pushStore: try SourceOptions.parse(["--config", config]).pushStore(configuration))
      do {
        try await sender.deliver([listing], search: search)
        Terminal.output(
          "sent a sample listing to '\(channel)' (\(target.kind.rawValue) \(target.redactedURL))\n")
      } catch {
        let said = (error as? DeliveryError)?.message ?? "\(error)"
        Terminal.error("error: \(ChannelRedactor.scrub(said, channel: target))\n")
        throw ExitStatus.notificationFailed.exitCode
      }
    }

    static func sample() -> Listing {
      Listing(
        id: "clarissa-test-1", site: "craigslist",
        url:
          "https://sfbay.craigslist.org/sfc/fuo/d/san-francisco-herman-miller-aeron/7000000000.html",
        title: "Herman Miller Aeron chair, size B (a test from clarissa)",
        description: "This is a sample listing sent by 'clarissa notify test'.", price: 450,
        currency: "USD",
        posted: Date().addingTimeInterval(-600), location: "SOMA / south beach", area: "sfbay/sfc",
        imageURLs: ["https://images.craigslist.org/00000_sample_600x450.jpg"])
    }
  }
}
