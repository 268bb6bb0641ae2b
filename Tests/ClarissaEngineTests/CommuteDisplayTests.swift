import Channels
import ClarissaCore
import ClarissaEngine
import Foundation
import Geography
import Testing

/// Given a listing whose travel times the commute stage gave (filled in here, as the stage
/// does), when it is worded for the reports, the messages and the JSON report, then the times
/// follow the facts and distances in one line ("24 min by transit to work"), a time not known
/// says why, and the JSON report carries `commute` as `{place, by, minutes}` in whole minutes.
@Suite struct CommuteDisplayTests {
  static let work = FactFilterTests.work

  /// A 2-room flat of 50 m², 2.3 km from work, 24.4 minutes from it by transit and with no
  /// route by bike to the gym.
  static func listing() -> Listing {
    var listing = FactFilterTests.listing(rooms: 2, squareMetres: 50, at: (52.5096, 13.3759))
    listing.commute = [
      CommuteTime(place: "work", by: .transit, minutes: 24.4),
      CommuteTime(place: "gym", by: .bike, minutes: nil, note: "no route"),
    ]
    return listing
  }

  static func search() -> Search {
    var search = Search(name: "flats", site: "test")
    search.places = [work]
    search.facts.commute = [CommuteLimit(place: work, mode: .transit, maxMinutes: 30)]
    return search
  }

  static let times = "24 min by transit to work · travel time to gym by bike unknown (no route)"

  @Test func oneLineHoldsTheFactsTheDistancesAndTheTravelTimes() {
    let listing = Self.listing()
    #expect(ListingFacts.travelTimes(listing) == Self.times)
    #expect(
      ListingFacts.whereabouts(listing, from: [Self.work]) == "2.3 km from work · \(Self.times)")
    #expect(
      ListingFacts.line(listing, for: Self.search())
        == "2 rooms · 50 m² · 2.3 km from work · \(Self.times)")
    // Without coordinates there is no distance; the times stand alone.
    var placeless = listing
    placeless.coordinates = nil
    #expect(ListingFacts.whereabouts(placeless, from: [Self.work]) == Self.times)
    // Without times nothing is added.
    #expect(ListingFacts.travelTimes(FactFilterTests.listing()) == nil)
    #expect(
      ListingFacts.line(
        FactFilterTests.listing(rooms: 2, at: (52.5096, 13.3759)), for: Self.search())
        == "2 rooms · 2.3 km from work")
  }

  @Test func aControlCharacterInANoteNeverReachesTheTerminal() {
    var listing = FactFilterTests.listing()
    listing.commute = [
      CommuteTime(place: "work", by: .car, minutes: nil, note: "engine said \u{1B}[2Jhi")
    ]
    let words = ListingFacts.travelTimes(listing) ?? ""
    #expect(!words.contains("\u{1B}"))
    #expect(words.hasPrefix("travel time to work by car unknown (engine said "))
  }

  @Test func messagesCarryTheTravelTimesAndTheCommuteField() throws {
    let listing = Self.listing()
    let search = Self.search()
    let each = Channel(name: "phone", kind: .ntfy, url: "ntfy://flats")
    let one = try #require(
      MessageTemplate.messages(for: [listing], search: search, channel: each).first)
    #expect(
      one.message.body.contains("2 rooms · 50 m² · 2.3 km from work · \(Self.times)\n"),
      "\(one.message.body)")
    var written = each
    written.bodyTemplate = "{distances} / {commute}"
    let custom = try #require(
      MessageTemplate.messages(for: [listing], search: search, channel: written).first)
    #expect(custom.message.body == "2.3 km from work / \(Self.times)")
    // A listing without times leaves the field empty.
    let none = try #require(
      MessageTemplate.messages(
        for: [FactFilterTests.listing(at: (52.5096, 13.3759))], search: search, channel: written
      ).first)
    #expect(none.message.body == "2.3 km from work /", "the body is trimmed")
  }

  @Test func theTextAndMarkdownReportsShowTheTravelTimes() {
    let result = RunResult.sample(Self.listing(), search: "flats")
    let text = RunReport.text(
      result, colored: false, timeZone: .gmt, searches: ["flats": Self.search()])
    #expect(text.contains("\n    2 rooms · 50 m² · 2.3 km from work · \(Self.times)\n"), "\(text)")
    let markdown = RunReport.markdown(result, searches: ["flats": Self.search()])
    #expect(markdown.contains(" — 2 rooms · 50 m² · 2.3 km from work · 24 min by transit to work"))
  }

  @Test func theJSONReportCarriesEachTimeInWholeMinutes() throws {
    let data = Data(RunReport.json(RunResult.sample(Self.listing(), search: "flats")).utf8)
    let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let search = try #require((report["searches"] as? [[String: Any]])?.first)
    let listing = try #require((search["new"] as? [[String: Any]])?.first)
    let commute = try #require(listing["commute"] as? [[String: Any]])
    #expect(commute.count == 2)
    #expect(commute[0]["place"] as? String == "work")
    #expect(commute[0]["by"] as? String == "transit")
    #expect(commute[0]["minutes"] as? Int == 24, "24.4 minutes, shown as 24")
    #expect(commute[0]["note"] == nil)
    #expect(commute[1]["minutes"] is NSNull, "no time: null, and the note says why")
    #expect(commute[1]["note"] as? String == "no route")
    // A listing without times has no `commute` key.
    let plain = RunReport.json(RunResult.sample(FactFilterTests.listing(), search: "flats"))
    #expect(!plain.contains("\"commute\""))
  }
}
