internal import Foundation
internal import WebServer

/// The files of Debian's Leaflet packages that `/assets/leaflet/` serves from the configured
/// folder, each by its exact name: nothing else of the folder (nor of any other) can be asked
/// for, so no path can lead outside it.
enum LeafletFiles {
  /// Each name served, with its content type.
  static let served: [String: String] = [
    "leaflet.js": "text/javascript", "leaflet.css": "text/css",
    "leaflet.markercluster.js": "text/javascript", "MarkerCluster.css": "text/css",
    "MarkerCluster.Default.css": "text/css", "images/layers.png": "image/png",
    "images/layers-2x.png": "image/png", "images/marker-icon.png": "image/png",
    "images/marker-icon-2x.png": "image/png", "images/marker-shadow.png": "image/png",
  ]

  /// What the map page loads: without one of them there is no map.
  static let needed = [
    "leaflet.css", "MarkerCluster.css", "MarkerCluster.Default.css", "leaflet.js",
    "leaflet.markercluster.js",
  ]

  /// The largest file served (Debian's leaflet.js is 431 KB).
  static let maxSize = 4 << 20

  /// The needed files that `folder` lacks.
  static func missing(in folder: String) -> [String] {
    needed.filter { !FileManager.default.isReadableFile(atPath: path(folder, $0)) }
  }

  /// `/assets/leaflet/NAME`: the file, or 404 saying which package to install.
  static func response(_ name: String, folder: String) -> WebResponse {
    guard let type = served[name] else {
      return WebResponse.text(
        "no such Leaflet file: only \(needed.joined(separator: ", ")) and its images\n", status: 404
      )
    }
    let file = path(folder, name)
    guard let handle = FileHandle(forReadingAtPath: file) else {
      return WebResponse.text(
        "\(file) is missing: apt-get install \(MapSettings.packages)\n", status: 404)
    }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: maxSize + 1), data.count <= maxSize else {
      return WebResponse.text("\(file) cannot be read or is over \(maxSize) bytes\n", status: 500)
    }
    var response = WebResponse(headers: [("Content-Type", type)], body: Array(data))
    response.headers.append(("Cache-Control", "max-age=3600"))
    return response
  }

  private static func path(_ folder: String, _ name: String) -> String {
    URL(fileURLWithPath: folder).appendingPathComponent(name).path
  }
}
