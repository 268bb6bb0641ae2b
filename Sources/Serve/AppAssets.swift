internal import ActionKeys
internal import WebServer

/// The installable web app's files, from `Sources/Serve/Assets/` compiled in (as ``Assets``):
/// the manifest, the service worker, the icons (drawn by `.ci/draw-icons`), the layouts' style
/// sheet and the scripts of the button and the panes.
enum AppAssets {
  /// `/manifest.webmanifest`: the app's name, icons, start, display and share target.
  static let manifest = PackageResources.manifest_webmanifest

  /// `/assets/push.js`: the service worker registered, the badge set, "Notify this device".
  static let push = PackageResources.push_js

  /// `/assets/panes.js`: on a tablet or a desktop, the list beside the listing's pane.
  static let panes = PackageResources.panes_js

  /// `/assets/layouts.css`: the tablet's and the desktop's layouts, the button's look.
  static let layouts = PackageResources.layouts_css

  /// `/icons/NAME`: the PNGs the manifest, the pages and the notifications name.
  static let icons: [String: [UInt8]] = [
    "icon-192.png": PackageResources.icon_192_png,
    "icon-512.png": PackageResources.icon_512_png,
    "icon-maskable-512.png": PackageResources.icon_maskable_512_png,
    "apple-touch-icon.png": PackageResources.apple_touch_icon_png,
    "badge-96.png": PackageResources.badge_96_png,
  ]

  /// The scripts and style sheets served from `/assets/` beside ``Assets``'.
  static let files: [String: (bytes: [UInt8], type: String)] = [
    "push.js": (push, "text/javascript"), "panes.js": (panes, "text/javascript"),
    "layouts.css": (layouts, "text/css"),
  ]

  /// The placeholder in `sw.js` that ``version`` replaces (a string literal of the script, so
  /// that a comment naming it is left alone).
  private static let placeholder = Array("\"CLARISSA_ASSETS\"".utf8)

  /// The first 16 hex digits of the SHA-256 of every file the worker keeps or is (the pages'
  /// style and script, this app's files, the offline page): a build that changes one of them
  /// has a new worker, whose caches replace the old ones.
  static let version: String = {
    var all: [UInt8] = []
    let parts: [[UInt8]] =
      [Assets.style, Assets.script, manifest, push, panes, layouts, PackageResources.sw_js]
      + icons.keys.sorted().compactMap { icons[$0] } + [Pages.offline().body]
    for part in parts {
      all += SHA256.hash(part)
    }
    return String(Secret.hex(SHA256.hash(all)).prefix(16))
  }()

  /// `/sw.js`: the worker's script with ``version`` in place of its placeholder.
  static let serviceWorker: [UInt8] = {
    let script = PackageResources.sw_js
    guard let start = firstIndex(of: placeholder, in: script) else { return script }
    return Array(script[..<start]) + Array("\"\(version)\"".utf8)
      + Array(script[(start + placeholder.count)...])
  }()

  private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    for start in 0...(bytes.count - needle.count)
    where bytes[start] == needle[0] && Array(bytes[start..<(start + needle.count)]) == needle {
      return start
    }
    return nil
  }
}
