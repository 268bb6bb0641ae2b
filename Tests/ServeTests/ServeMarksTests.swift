import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Serve
import Testing
import WebServer

/// Star, hide and note from the pages (forms with the page's CSRF token) and from the API
/// (over HTTP on loopback, with the access token): set, shown, and the hidden left out of the
/// lists, the map and the API.
@Suite struct ServeMarksTests {
  static func listings() -> [Listing] {
    (1...4).map { number in
      var listing = ServeFixture.listing("900\(number)", title: "Desk \(number)", price: 50)
      listing.coordinates = Coordinates(latitude: 37.7 + Double(number) / 100, longitude: -122.4)
      return listing
    }
  }

  static let sameOrigin: [(name: String, value: String)] = [
    ("sec-fetch-site", "same-origin"), ("origin", "http://127.0.0.1:8421"),
    ("host", "127.0.0.1:8421"),
  ]

  func ids(_ fixture: ServeFixture, _ target: String) throws -> [String] {
    let response = fixture.get(target)
    #expect(response.status == 200, "\(target): \(fixture.text(response))")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    return (object["listings"] as? [[String: Any]] ?? []).compactMap {
      ($0["listing"] as? [String: Any])?["id"] as? String
    }
  }

  @Test func theCardsFormsStarHideAndNoteAndTheViewsFollow() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.listings()])
    let csrf = fixture.csrf()
    let key = ListingKey(site: "craigslist", id: "9002")
    let page = fixture.text(fixture.get("/listings"))
    #expect(page.contains("<a href=\"/starred\">Starred</a><a href=\"/hidden\">Hidden</a>"))
    #expect(page.components(separatedBy: "value=\"star\" class=\"star-button\"").count == 5)

    let starred = fixture.post(
      "/mark", form: "csrf=\(csrf)&key=craigslist:9002&mark=star&return=%2Flistings%3Fpage%3D1",
      headers: Self.sameOrigin)
    #expect(starred.status == 303)
    #expect(fixture.header(starred, "Location") == "/listings?page=1")
    #expect(try fixture.store.marks(of: [key])[key]?.starred == true)
    #expect(try ids(fixture, "/api/listings?starred=1") == ["9002"])
    let starredPage = fixture.text(fixture.get("/starred"))
    #expect(starredPage.contains("<h1>Starred</h1>"))
    #expect(starredPage.contains("data-key=\"craigslist:9002\""))
    #expect(starredPage.contains("value=\"unstar\" class=\"star-button on\""))
    #expect(starredPage.contains("★ starred"))
    #expect(!starredPage.contains("data-key=\"craigslist:9001\""))

    for id in ["9003", "9004"] {
      let hidden = fixture.post(
        "/mark", form: "csrf=\(csrf)&key=craigslist:\(id)&mark=hide&return=%2Flistings",
        headers: Self.sameOrigin)
      #expect(hidden.status == 303)
    }
    #expect(try ids(fixture, "/api/listings") == ["9001", "9002"])
    #expect(try Set(ids(fixture, "/api/listings?hidden=1")) == ["9004", "9003"])
    #expect(try ids(fixture, "/api/listings?with_hidden=1").count == 4)
    let list = fixture.text(fixture.get("/listings"))
    #expect(!list.contains("craigslist:9003") && !list.contains("craigslist:9004"))
    let map = fixture.text(fixture.get("/api/map"))
    #expect(map.contains("9001") && !map.contains("9003") && !map.contains("9004"))
    let hiddenPage = fixture.text(fixture.get("/hidden"))
    #expect(hiddenPage.contains("<h1>Hidden</h1>") && hiddenPage.contains("craigslist:9004"))
    #expect(hiddenPage.contains("value=\"unhide\" class=\"hide-button on\""))
    #expect(hiddenPage.contains("name=\"hidden\" value=\"1\""), "the filters keep the view")
    // A hidden listing's page still tells its story, and how to show it again.
    let listingPage = fixture.text(fixture.get("/listing/craigslist/9003"))
    #expect(listingPage.contains("<dt>hidden</dt>") && listingPage.contains(">Unhide</button>"))

    let noted = fixture.post(
      "/mark",
      form: "csrf=\(csrf)&key=craigslist:9002&mark=note&note=call+%3Cb%3Eafter%3C%2Fb%3E+6"
        + "&return=%2Flisting%2Fcraigslist%2F9002", headers: Self.sameOrigin)
    #expect(noted.status == 303)
    let shown = fixture.text(fixture.get("/listing/craigslist/9002"))
    #expect(shown.contains("<dt>note</dt><dd><span class=\"note-text\">call &lt;b&gt;after"))
    #expect(shown.contains("<dt>starred</dt>"))
    #expect(try fixture.store.marks(of: [key])[key]?.note == "call <b>after</b> 6")
    _ = fixture.post(
      "/mark", form: "csrf=\(csrf)&key=craigslist:9002&mark=unnote", headers: Self.sameOrigin)
    #expect(try fixture.store.marks(of: [key])[key]?.note == nil)

    // Refused: no token, another site, an unknown listing, an unknown mark.
    let forged = fixture.post("/mark", form: "key=craigslist:9001&mark=hide")
    #expect(forged.status == 403)
    let crossSite = fixture.post(
      "/mark", form: "csrf=\(csrf)&key=craigslist:9001&mark=hide",
      headers: [("sec-fetch-site", "cross-site")])
    #expect(crossSite.status == 403)
    #expect(try ids(fixture, "/api/listings").contains("9001"))
    let unknown = fixture.post(
      "/mark", form: "csrf=\(csrf)&key=craigslist:1&mark=star", headers: Self.sameOrigin)
    #expect(unknown.status == 404)
    #expect(try fixture.store.markedKeys(.starred) == [key])
    let wrong = fixture.post(
      "/mark", form: "csrf=\(csrf)&key=craigslist:9001&mark=burn", headers: Self.sameOrigin)
    #expect(wrong.status == 400)
  }

  @Test func theAPISetsReadsAndClearsMarksOverHTTP() throws {
    let token = "marks-token-0123456789"
    let fixture = try ServeFixture(listings: ["desks": Self.listings()])
    let box = AppHolder()
    let server = try HTTPServer(address: "127.0.0.1:0") { box.app!.handle($0) }
    defer { server.stop() }
    box.app = WebApp(
      store: fixture.store, config: fixture.app.config,
      access: WebApp.Access(token: token, hosts: []))
    server.start()
    func call(_ method: String, _ path: String, body: String = "", auth: Bool = true) throws
      -> (status: Int, json: [String: Any])
    {
      let answer = try RawHTTP.exchange(
        port: server.port,
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + (auth ? "Authorization: Bearer \(token)\r\n" : "")
          + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
          + "Connection: close\r\n\r\n\(body)")
      let status = Int(answer.dropFirst(9).prefix(3)) ?? 0
      let json = answer.components(separatedBy: "\r\n\r\n").dropFirst().joined()
      let object =
        (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]) ?? [:]
      return (status, object)
    }
    let base = "/api/listings/craigslist/9001"
    let star = try call("POST", base + "/star")
    #expect(star.status == 200)
    #expect(star.json["key"] as? String == "craigslist:9001")
    #expect(star.json["changed"] as? Bool == true)
    #expect((star.json["marks"] as? [String: Any])?["starredAt"] as? String != nil)
    #expect(try call("POST", base + "/star").json["changed"] as? Bool == false)
    let note = try call("POST", base + "/note", body: #"{"note": "ask for the keys"}"#)
    #expect((note.json["marks"] as? [String: Any])?["note"] as? String == "ask for the keys")
    #expect(try call("POST", base + "/hide").status == 200)
    let read = try call("GET", base + "/marks")
    let marks = try #require(read.json["marks"] as? [String: Any])
    #expect(Set(marks.keys) == ["starredAt", "hiddenAt", "note", "notedAt"])
    // The listing's JSON carries them; the lists leave it out while hidden.
    let story = try call("GET", base)
    #expect((story.json["marks"] as? [String: Any])?["note"] as? String == "ask for the keys")
    #expect(try call("GET", "/api/listings?hidden=1").json["listings"] as? [Any] != nil)
    let shownList = try call("GET", "/api/listings").json["listings"] as? [[String: Any]] ?? []
    #expect(shownList.count == 3)

    #expect(try call("DELETE", base + "/hide").json["changed"] as? Bool == true)
    #expect(try call("DELETE", base + "/star").json["changed"] as? Bool == true)
    #expect(try call("POST", base + "/note", body: #"{"note": null}"#).status == 200)
    #expect((try call("GET", base + "/marks").json["marks"] as? [String: Any])?.isEmpty == true)

    // Refused: no token, a bad body, an unknown action or listing, a wrong method.
    #expect(try call("POST", base + "/star", auth: false).status == 401)
    #expect(try call("POST", base + "/note", body: "{}").status == 400)
    #expect(try call("POST", base + "/note", body: #"{"note": 5}"#).status == 400)
    #expect(try call("POST", base + "/burn").status == 404)
    #expect(try call("POST", "/api/listings/craigslist/1/star").status == 404)
    #expect(try call("GET", base + "/star").status == 405)
    #expect(try call("DELETE", base + "/marks").status == 405)
    #expect(try fixture.store.marks(of: [ListingKey(site: "craigslist", id: "9001")]).isEmpty)
  }
}
