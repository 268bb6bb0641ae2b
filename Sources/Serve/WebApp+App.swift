internal import ListingStore
internal import WebServer

/// The installable web app: the manifest, the service worker, the icons, the offline page, the
/// unviewed count a page hands the app's badge, and the "Notify this device" button.
extension WebApp {
  /// The manifest, the worker and the icons answer without the access token: a browser asks
  /// for the manifest and its icons without the page's cookie (to install, for a
  /// notification), and they hold nothing of the store. The Host is checked as for any request.
  static func isPublicAppFile(_ request: WebRequest, _ path: [String]) -> Bool {
    guard request.method == "GET" else { return false }
    return path == ["manifest.webmanifest"] || path == ["sw.js"]
      || (path.count == 2 && path[0] == "icons" && AppAssets.icons[path[1]] != nil)
  }

  /// The answer to one of ``isPublicAppFile(_:_:)``'s paths.
  static func publicAppFile(_ path: [String]) -> WebResponse {
    switch path {
    case ["manifest.webmanifest"]:
      return WebResponse(
        headers: [("Content-Type", "application/manifest+json"), ("Cache-Control", "no-cache")],
        body: AppAssets.manifest)
    case ["sw.js"]:
      // Asked again at every visit (no-cache: kept, but checked first), so that a new build's
      // worker replaces the old one at once; never `immutable` nor a max-age.
      return WebResponse(
        headers: [
          ("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache"),
        ],
        body: AppAssets.serviceWorker)
    default:
      return WebResponse(
        headers: [("Content-Type", "image/png"), ("Cache-Control", "max-age=86400")],
        body: AppAssets.icons[path.last ?? ""] ?? [])
    }
  }

  /// `/offline` and this app's files under `/assets/` (behind the token, as the pages' style
  /// sheet); nil: the path is none of them.
  static func appFile(_ path: [String]) -> WebResponse? {
    if path == ["offline"] { return Pages.offline() }
    guard path.count == 2, path[0] == "assets", let file = AppAssets.files[path[1]] else {
      return nil
    }
    return asset(file.bytes, type: file.type)
  }

  /// `<meta name="app-badge">` with the listings nobody has viewed, summed over the searches as
  /// the searches page counts them: what `push.js` sets the app's badge to at each visit. (Not
  /// `name="unviewed"`: the filter's checkbox has that name.)
  func badgeCount() throws -> HTML {
    let total = try store.unviewedCounts().values.reduce(0) { $0 &+ max(0, $1) }
    return "<meta name=\"app-badge\" content=\"\(total)\">"
  }

  /// The searches page's "Notify this device": hidden until `push.js` shows it (a page without
  /// script has nothing to click).
  static let deviceControls: HTML = """
    <section class="device" id="device" hidden><button type="button" id="notify-device">\
    Notify this device</button><span id="notify-state" role="status"></span></section>

    """
}

extension Pages {
  /// `/offline`: what the worker shows for a page that is neither reachable nor kept.
  static func offline() -> WebResponse {
    layout(
      "Offline", csrf: nil,
      """
      <h1>Offline</h1>
      <p class="offline-note">This page cannot be reached, and this device has not kept it. The \
      pages viewed last are kept (up to 50): they open without a network.</p>
      <p><a href="/">The searches</a></p>
      """)
  }
}
