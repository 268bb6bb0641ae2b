internal import Channels
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

/// The short account of a valid config that `validate` prints: what a run would do.
struct ConfigSummary {
  let config: Config
  let file: String
  let warnings: Int

  var text: String {
    let enabled = config.searches.filter(\.enabled)
    let requests = enabled.reduce(0) { $0 + requestCount($1) }
    var lines = [
      "\(file): valid" + (warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s"))" : ""),
      "\(config.searches.count) search\(config.searches.count == 1 ? "" : "es") "
        + "(\(enabled.count) enabled), \(requests) request\(requests == 1 ? "" : "s") per round",
    ]
    let width = min(28, config.searches.map(\.name.count).max() ?? 0)
    for search in config.searches {
      lines.append("  " + row(search, nameWidth: width))
    }
    if !config.places.isEmpty {
      lines.append("places: " + config.places.map(\.name).joined(separator: ", "))
    }
    if !config.routing.engines.isEmpty {
      lines.append("routing:")
      for mode in TravelMode.allCases {
        guard let engine = config.routing.engines[mode] else { continue }
        lines.append("  \(mode.rawValue): " + Self.engine(engine))
      }
    }
    if !config.channels.isEmpty {
      lines.append("channels:")
      for channel in config.channels.values.sorted(by: { $0.name < $1.name }) {
        let url = channel.kind == .stdout ? "" : " \(channel.redactedURL)"
        lines.append("  \(channel.name): \(channel.kind.rawValue)\(url)")
      }
    }
    if !config.blackouts.isEmpty {
      lines.append("quiet hours:")
      for window in config.blackouts.values.sorted(by: { $0.name < $1.name }) {
        lines.append("  \(window.name): \(describe(window))")
      }
    }
    if let serve = config.serve { lines.append(Self.serve(serve)) }
    lines.append(
      "state: \(config.state.url.map { StoreSharing.masked($0) + Self.sharing(config.state) } ?? config.state.path), "
        + "listings kept \(config.state.retention) after last seen")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `serve: https://... (buttons work 7d), listens on ..., token from ...`.
  private static func serve(_ serve: ServeSettings) -> String {
    var parts: [String] = []
    if let url = serve.url {
      parts.append("\(url) (ntfy and Telegram buttons, working \(serve.actionExpiry))")
    } else {
      parts.append("no url (no buttons in the messages)")
    }
    if let address = serve.address { parts.append("listens on \(address)") }
    if let file = serve.tokenFile { parts.append("token from \(file)") }
    if let file = serve.keyFile { parts.append("action key in \(file)") }
    return "serve: " + parts.joined(separator: ", ")
  }

  /// `osrm http://127.0.0.1:5000 (driving), 20 requests a run, 1s apart`: the URL without its
  /// user, password, query or fragment, which may hold a key.
  private static func engine(_ engine: RoutingEngine) -> String {
    var url = URLComponents(string: engine.url)
    url?.user = nil
    url?.password = nil
    url?.query = nil
    url?.fragment = nil
    let setting = engine.profile ?? engine.depart?.description
    return "\(engine.kind.rawValue) \(url?.string ?? engine.url)"
      + (setting.map { " (\($0))" } ?? "")
      + ", \(engine.perRun) request\(engine.perRun == 1 ? "" : "s") a run, \(engine.delay) apart"
  }

  /// The fact and place filters by their keys: "rooms, floor_area, near office/oakland (any)".
  private func facts(_ facts: FactFilters) -> String {
    var keys: [String] = []
    if facts.rooms != nil { keys.append("rooms") }
    if facts.bedrooms != nil { keys.append("bedrooms") }
    if facts.floorArea != nil { keys.append("floor_area") }
    if facts.pricePerArea != nil { keys.append("price_per_area") }
    if !facts.near.isEmpty {
      let mode = facts.near.count > 1 ? " (\(facts.nearMode.rawValue))" : ""
      keys.append("near " + facts.near.map(\.place.name).joined(separator: "/") + mode)
    }
    if !facts.within.isEmpty {
      keys.append("within " + facts.within.map(\.name).joined(separator: ", "))
    }
    for limit in facts.commute {
      let max = CheckedNumber.text(limit.maxMinutes)
      keys.append("commute \(limit.place.name) by \(limit.mode.rawValue) ≤ \(max) min")
    }
    return keys.joined(separator: ", ") + (facts.missing == .drop ? " (missing: drop)" : "")
  }

  private func row(_ search: Search, nameWidth: Int) -> String {
    let name = search.name.padding(
      toLength: max(nameWidth, search.name.count), withPad: " ", startingAt: 0)
    var parts = [name, search.site, places(search), "every \(search.interval)"]
    if !search.filters.isEmpty {
      parts.append("\(search.filters.count) filter\(search.filters.count == 1 ? "" : "s")")
    }
    if !search.facts.isEmpty { parts.append("facts: " + facts(search.facts)) }
    parts.append(
      search.notify.isEmpty ? "report only" : "notify: " + search.notify.joined(separator: ", "))
    if !search.blackout.isEmpty {
      parts.append("quiet: " + search.blackout.joined(separator: ", "))
    }
    if search.notifyOn != [.new] { parts.append("on: " + events(search)) }
    if search.duplicates == .notify {
      parts.append("reposts: notified")
    } else if search.repostWindow != Search.defaultRepostWindow {
      parts.append("reposts folded within \(search.repostWindow)")
    }
    // The guard against redirects into the user's network is lifted: said where it is.
    if search.allowPrivateRedirects { parts.append("private redirects allowed") }
    if !search.enabled { parts.append("(disabled)") }
    return parts.joined(separator: "  ")
  }

  /// `notify_on` in words, with the thresholds that apply: `new, price drop (5%, 10), back
  /// after 7d`.
  private func events(_ search: Search) -> String {
    search.notifyOn.sorted().map { kind in
      switch kind {
      case .priceDrop: "price drop (\(threshold(search.priceDrop)))"
      case .priceRise: "price rise (\(threshold(search.priceRise)))"
      case .back: "back after \(search.backAfter)"
      case .changed: "text changed"
      case .new, .gone, .reposted: kind.words
      }
    }.joined(separator: ", ")
  }

  private func threshold(_ threshold: PriceThreshold) -> String {
    let number = CheckedNumber.text
    return "\(number(threshold.minPercent))%, \(number(threshold.minAmount))"
  }

  private func places(_ search: Search) -> String {
    if let urls = Self.urls(search) {
      return "\(urls.count) feed\(urls.count == 1 ? "" : "s")"
    }
    let names = search.cities.map(\.name)
    let shown = names.prefix(4).joined(separator: ", ")
    return names.count > 4 ? "\(shown) +\(names.count - 4) more" : shown
  }

  /// One request per city, or per feed URL for sites that take URLs.
  private func requestCount(_ search: Search) -> Int {
    if let urls = Self.urls(search) { return urls.count }
    // A site without cities makes its one request.
    return max(search.cities.count, 1)
  }

  /// The URLs of a search on a site that takes URLs rather than cities (a feed's `feeds`).
  private static func urls(_ search: Search) -> [String]? {
    for value in search.parameters.values { if case .urls(let urls) = value { return urls } }
    return nil
  }

  private func describe(_ window: BlackoutWindow) -> String {
    let days =
      window.days.count == 7
      ? "every day" : window.days.sorted().map(\.rawValue).joined(separator: ",")
    let wrap = window.wrapsMidnight ? " (next day)" : ""
    return "\(window.from)-\(window.to)\(wrap) \(window.timeZone), \(days), \(window.mode.rawValue)"
  }
}

extension ConfigSummary {
  /// How workers share a PostgreSQL store, for the summary line.
  static func sharing(_ state: StateSettings) -> String {
    " (shared by workers: leases of \(state.lease), "
      + (state.politeness == .shared ? "one pace per host" : "each worker its own pace") + ")"
  }
}
