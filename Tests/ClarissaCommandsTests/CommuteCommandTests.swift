import ClarissaCore
import FixtureSupport
import Foundation
import Testing

/// Given the bundled searches with `commute: {office: {by: car, max: 30 min}}` for ipads and
/// `routing:` sending car to a loopback OSRM, when the bundled replay runs twice and `listings`
/// and `show` read the store, then the engine is asked on the first run only, and both
/// commands print the times the engine answered (computed here from the loopback's rule) for
/// each listing's grid cell.
@Suite(.serialized) struct CommuteCommandTests {
  static let office = Coordinates(latitude: 37.7749, longitude: -122.4194)

  static func clarissa(_ arguments: [String]) throws -> CommandLineTests.Outcome {
    try CommandLineTests.run(arguments, environment: ["TZ": "UTC"])
  }

  @Test func runAsksOnceAndListingsAndShowPrintTheKeptTimes() throws {
    let osrm = try LoopbackOSRM()
    defer { osrm.server.stop() }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("commute-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var yaml = try String(
      contentsOf: TestTools.packageRoot.appendingPathComponent("searches.yaml"), encoding: .utf8)
    yaml = yaml.replacingOccurrences(
      of: "  - name: ipads\n",
      with: "  - name: ipads\n    commute: {office: {by: car, max: 30 min}}\n")
    yaml += """

      places:
        office: [\(Self.office.latitude), \(Self.office.longitude)]
      routing:
        car: {osrm: "\(osrm.base)", delay: 0s}

      """
    let config = folder.appendingPathComponent("searches.yaml").path
    try yaml.write(toFile: config, atomically: true, encoding: .utf8)
    let replay = Fixtures.root.appendingPathComponent("replay/default").path
    let first = try Self.clarissa(["run", "--config", config, "--replay", replay, "--quiet"])
    #expect(first.status == 0, "\(first.stderr)")
    let asked = osrm.requests
    #expect(asked >= 1 && asked <= 4, "a handful of requests: \(osrm.homesPerRequest)")
    let second = try Self.clarissa(["run", "--config", config, "--replay", replay, "--quiet"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(osrm.requests == asked, "the second run reads the store's answers")

    let listed = try Self.clarissa([
      "listings", "--config", config, "--search", "ipads", "--format", "json", "--limit", "500",
    ])
    #expect(listed.status == 0, "\(listed.stderr)")
    let found = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    var checked = 0
    var shownID: String?
    for item in found {
      let listing = item["listing"] as? [String: Any] ?? item
      let position = listing["coordinates"] as? [String: Any]
      guard let lat = position?["latitude"] as? Double, let lon = position?["longitude"] as? Double
      else { continue }
      let here = Coordinates(latitude: lat, longitude: lon)
      let cell = CommuteGrid.cell(here)
      let time = try #require((listing["commute"] as? [[String: Any]])?.first, "\(listing)")
      #expect(time["place"] as? String == "office" && time["by"] as? String == "car")
      if Self.office.distance(to: here) > TravelMode.car.reach(inMinutes: 30) {
        #expect(time["minutes"] is NSNull, "beyond the bound: never asked")
        continue
      }
      let seconds = LoopbackOSRM.seconds(from: cell, to: Self.office, mode: .car)
      let expected = seconds.map { max(1, Int(($0 / 60).rounded())) }
      #expect(time["minutes"] as? Int == expected, "\(listing["id"] ?? "?"): \(time)")
      checked += 1
      if expected != nil { shownID = listing["id"] as? String }
    }
    #expect(checked >= 20, "\(checked) listings checked of \(found.count)")
    let id = try #require(shownID)
    let shown = try Self.clarissa(["show", "--config", config, id])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stdout.contains("travel times: "), "\(shown.stdout)")
    #expect(shown.stdout.contains(" min by car to office"), "\(shown.stdout)")
  }
}
