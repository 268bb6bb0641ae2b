import ActionKeys
import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Serve
import WebServer

/// A store in a temporary folder, filled through the store's own API as runs fill it.
struct ServeFixture {
  let folder: URL
  let store: ListingStore
  let app: WebApp
  let now = Date(timeIntervalSince1970: 1_790_000_000)

  init(
    token: String? = nil, hosts: Set<String> = [], map: MapSettings = MapSettings(),
    actionKey: ActionKey? = nil, publicURL: String? = nil, travelTimes: TravelTimes = .none,
    capture: CaptureDesk? = nil, listings: [String: [Listing]]
  ) throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    store = try ListingStore.open(
      path: folder.appendingPathComponent("state.db").path, readOnly: false)
    var searches: [ServedConfig.Search] = []
    for (index, (name, found)) in listings.sorted(by: { $0.key < $1.key }).enumerated() {
      try store.record(
        SearchRecord(
          search: name, now: now.addingTimeInterval(Double(index)), seen: found, recent: found,
          reached: true))
      searches.append(
        ServedConfig.Search(
          name: name, site: found.first?.site ?? "craigslist", interval: 900, enabled: true,
          hosts: ["sfbay.craigslist.org"]))
    }
    let fixed = now
    app = WebApp(
      store: store,
      config: ServedConfig(
        path: "searches.yaml", searches: searches, problems: "", hasErrors: false),
      access: WebApp.Access(
        token: token, hosts: hosts, actionKey: actionKey, publicURL: publicURL), map: map,
      travelTimes: travelTimes, capture: capture, clock: { fixed.addingTimeInterval(600) })
  }

  func get(_ target: String, headers: [(name: String, value: String)] = []) -> WebResponse {
    app.handle(WebRequest(method: "GET", target: target, headers: headers))
  }

  func post(
    _ target: String, form: String, headers: [(name: String, value: String)] = []
  ) -> WebResponse {
    app.handle(
      WebRequest(
        method: "POST", target: target,
        headers: [("content-type", "application/x-www-form-urlencoded")] + headers,
        body: Array(form.utf8)))
  }

  /// The CSRF token the pages carry.
  func csrf() -> String {
    let body = text(get("/api/session"))
    let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String]
    return object?["csrf"] ?? ""
  }

  func text(_ response: WebResponse) -> String { String(decoding: response.body, as: UTF8.self) }

  func header(_ response: WebResponse, _ name: String) -> String? {
    response.headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  static func listing(
    _ id: String, title: String, price: Double? = 100, url: String? = nil,
    description: String = "", images: [String] = [], location: String? = nil
  ) -> Listing {
    Listing(
      id: id, site: "craigslist", url: url ?? "https://sfbay.craigslist.org/sfc/ele/d/\(id).html",
      title: title, description: description, price: price, currency: "USD",
      posted: Date(timeIntervalSince1970: 1_789_990_000), location: location,
      imageURLs: images)
  }
}
