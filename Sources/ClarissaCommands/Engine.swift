internal import Channels
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Curl
internal import Foundation
internal import ListingStore
internal import Sites

extension SourceOptions {
  /// The runner every command uses, assembled in this one place: the sites, the polite
  /// scheduler over the network (or a recording, or a recording being made), the channels'
  /// senders and the outputs. `explain` asks for no channels and no outputs.
  func runner(
    _ configuration: Config, sites: SiteCatalog, settings: SchedulerSettings? = nil,
    record: String? = nil, delivering: Bool = true
  ) throws -> Runner {
    let live = CurlFetcher(limits: limits(configuration))
    let fetcher: any Fetcher =
      try record.map { try RecordingFetcher(wrapping: live, folder: $0) }
      ?? sourceFetcher(live: live)
    var channels: [String: any DeliveryChannel] = [:]
    if delivering {
      // Notifications have their own connection and a small answer limit.
      let notifier = CurlFetcher(
        limits: FetchLimits(timeout: configuration.http.timeout.timeInterval, maxBytes: 1 << 20))
      channels = ChannelFactory.senders(
        for: configuration, fetcher: notifier, environment: ProcessInfo.processInfo.environment,
        baseDirectory: folder, actions: try actionLinks(configuration),
        pushStore: try pushStore(configuration))
    }
    var runner = Runner(
      config: configuration, sites: sites,
      scheduler: RequestScheduler(
        fetcher: fetcher, settings: settings ?? schedulerSettings(configuration)),
      statePath: statePath(configuration), channels: channels,
      outputs: delivering ? OutputPaths(configuration.output, resolve: resolve) : nil)
    runner.sharing = try sharing(configuration)
    runner.photoHasher = PhotoFingerprints.hasher
    return runner
  }
}
