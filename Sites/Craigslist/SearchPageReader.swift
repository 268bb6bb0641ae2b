internal import ClarissaCore
internal import Foundation
internal import Markup
internal import SiteFormat

/// Reads Craigslist's static HTML search page: `li.cl-static-search-result` elements (title,
/// link, price, place), completed from the page's schema.org JSON-LD (coordinates, photos),
/// paired by name because for-sale pages leave out listings without photos and renumber.
/// Pages from before 2023 (`li.result-row`) are read too (``LegacyResultRows``).
enum SearchPageReader {
  static func read(_ response: SourceResponse) throws -> ListingBatch {
    let document: HTMLDocument
    do {
      document = try HTMLDocument(bytes: response.body, url: response.finalURL)
    } catch {
      throw SiteError("the search page could not be read: \(error)")
    }
    let results = document.elements(named: "li").filter { $0.hasClass("cl-static-search-result") }
    let hasResultList = document.elements(named: "ol").contains {
      $0.hasClass("cl-static-search-results")
    }
    guard hasResultList || !results.isEmpty else {
      let rows = document.elements(named: "li").filter { $0.hasClass("result-row") }
      if !rows.isEmpty { return LegacyResultRows.read(rows, response: response) }
      throw SiteError("not a Craigslist search page: it has no 'cl-static-search-results' list")
    }
    var details = StructuredResults(document)
    let context = response.request.context
    var notes: [String] = []
    var listings: [Listing] = []
    for (index, element) in results.enumerated() {
      guard let link = element.first("a")?.attribute("href"), let id = postingKey(link) else {
        notes.append("result \(index + 1) has no listing link; skipped")
        continue
      }
      let title =
        element.attribute("title") ?? element.first("div", class: "title")?.textContent ?? ""
      let extra = details.take(named: title)
      let priceText = element.first("div", class: "price")?.textContent
      let price = priceText.flatMap(PriceText.parse) ?? extra?.price
      let place = element.first("div", class: "location")?.textContent.trimmingCharacters(
        in: .whitespacesAndNewlines)
      var listing = Listing(
        id: id, site: "craigslist", url: link, title: HTMLText.normalize(title), price: price,
        currency: price == nil ? nil : context["currency"],
        location: place?.isEmpty == false ? place : nil,
        area: areaName(context), coordinates: extra?.coordinates, imageURLs: extra?.images ?? [],
        category: context["category"])
      listing.bedrooms = extra?.bedrooms
      listing.bathrooms = extra?.bathrooms
      listing.postcode = extra?.postcode
      listing.address = extra?.address
      listings.append(listing)
    }
    return ListingBatch(listings: listings, notes: notes)
  }

  /// The posting id of a legacy link (`.../7915891289.html`), else the uuid that ends a
  /// 2026 link (`/view/d/<slug>/<uuid>`).
  static func postingKey(_ link: String) -> String? {
    let path = link.split(separator: "?").first.map(String.init) ?? link
    guard let last = path.split(separator: "/").last else { return nil }
    if last.hasSuffix(".html") {
      let digits = last.dropLast(5)
      return digits.allSatisfy(\.isNumber) && !digits.isEmpty ? String(digits) : nil
    }
    let isKey = last.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-")
    }
    return last.count >= 10 && isKey ? String(last) : nil
  }

  static func areaName(_ context: [String: String]) -> String? {
    guard let hostname = context["hostname"] else { return nil }
    return context["subarea"].map { "\(hostname)/\($0)" } ?? hostname
  }
}

/// The `ld_searchpage_results` JSON-LD ItemList, queued by name.
struct StructuredResults {
  struct Entry {
    var coordinates: Coordinates?
    var images: [String]
    var price: Double?
    /// `Apartment`/`House`: `numberOfBedrooms`, `numberOfBathroomsTotal`, and the postal
    /// address's `postalCode` and `streetAddress` when not empty.
    var bedrooms: Double?
    var bathrooms: Double?
    var postcode: String?
    var address: String?
  }

  private var byName: [String: [Entry]] = [:]

  init(_ document: HTMLDocument) {
    guard
      let script = document.elements(named: "script").first(where: {
        $0.attribute("id") == "ld_searchpage_results"
      }),
      let object = try? JSONSerialization.jsonObject(with: Data(script.textContent.utf8))
        as? [String: Any],
      let elements = object["itemListElement"] as? [[String: Any]]
    else { return }
    for element in elements {
      guard let item = element["item"] as? [String: Any], let name = item["name"] as? String else {
        continue
      }
      var coordinates: Coordinates?
      let geo = item["geo"] as? [String: Any] ?? item
      if let lat = (geo["latitude"] as? NSNumber)?.doubleValue,
        let lon = (geo["longitude"] as? NSNumber)?.doubleValue
      {
        coordinates = Coordinates(latitude: lat, longitude: lon)
      }
      let images = (item["image"] as? [String]) ?? (item["image"] as? String).map { [$0] } ?? []
      let offers = item["offers"] as? [String: Any]
      let price =
        (offers?["price"] as? NSNumber)?.doubleValue
        ?? (offers?["price"] as? String).flatMap(PriceText.parse)
      let address = item["address"] as? [String: Any]
      byName[name, default: []].append(
        Entry(
          coordinates: coordinates, images: images, price: price,
          bedrooms: Self.count(item["numberOfBedrooms"]),
          bathrooms: Self.count(item["numberOfBathroomsTotal"]),
          postcode: Self.text(address?["postalCode"]),
          address: Self.text(address?["streetAddress"])))
    }
  }

  /// A JSON number (or a numeric text) that can count rooms.
  private static func count(_ value: Any?) -> Double? {
    if let text = value as? String { return FactText.count(text, decimal: ".") }
    return (value as? NSNumber).flatMap { JSONKind.boolean($0) == nil ? $0.doubleValue : nil }
      .flatMap(FactText.count)
  }

  private static func text(_ value: Any?) -> String? {
    (value as? String).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      .flatMap { $0.isEmpty ? nil : $0 }
  }

  /// The next entry with this name (names repeat: the queue keeps page order).
  mutating func take(named name: String) -> Entry? {
    guard var queue = byName[name], !queue.isEmpty else { return nil }
    let first = queue.removeFirst()
    byName[name] = queue
    return first
  }
}
