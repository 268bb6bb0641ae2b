import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import Channels
@testable import ClarissaEngine

/// Warning signs in a message: one line each under the listing's facts, `⚠` first, before the
/// deal context, stripped of control characters; the text report says them too.
@Suite struct SignalMessageTests {
  static func flagged() -> Listing {
    var listing = Listing(
      id: "3470000001", site: "kleinanzeigen",
      url: "https://www.kleinanzeigen.de/s-anzeige/x/3470000001-203-2092",
      title: "Helle 2,5 Zimmer Wohnung in Oberbilk, sofort frei", price: 390, currency: "EUR",
      location: "40227 Eller")
    listing.signals = [
      ListingSignal(.lowPrice, "57% below the median per m² of 13 similar"),
      ListingSignal(.scamWords, "scam words: \"kaution vorab\"\u{1B}[2J"),
    ]
    listing.alert = ListingAlert(context: ["on the market 3 days (first seen 25 Nov)"])
    return listing
  }

  @Test func theMessageSaysEachSignInALine() throws {
    let channel = Channel(name: "n", kind: .ntfy, url: "ntfy://ntfy.sh/deals")
    let (message, _) = try #require(
      MessageTemplate.messages(
        for: [Self.flagged()], search: Search(name: "flats", site: "kleinanzeigen"),
        channel: channel
      ).first)
    #expect(
      message.body.contains(
        "⚠ 57% below the median per m² of 13 similar\n⚠ scam words: \"kaution vorab\"[2J\n"
          + "on the market 3 days (first seen 25 Nov)"), "\(message.body)")
    #expect(!HostileText.hasControl(message.body))
    // A listing without signs or context says nothing of them.
    var plain = Self.flagged()
    plain.signals = []
    plain.alert = nil
    #expect(MessageTemplate.contextLines(plain).isEmpty)
  }

  @Test func theTextReportSaysThem() {
    let lines = RunReport.block(Self.flagged(), now: Date(), paint: Paint(enabled: false))
    #expect(lines.contains("    ⚠ 57% below the median per m² of 13 similar"))
  }
}
