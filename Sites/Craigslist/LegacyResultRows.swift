internal import ClarissaCore
internal import Foundation
internal import Markup
internal import SiteFormat

/// Craigslist search pages from about 2015 to 2022: `li.result-row[data-pid]` with
/// `a.result-title` (title and link), `time.result-date[datetime]` (local time of the area),
/// `span.result-price`, `span.result-hood` ("(place)"), `span.housing` ("2br - 850ft2 -") and
/// `a.result-image[data-ids]` photos.
enum LegacyResultRows {
  static func read(_ rows: [HTMLNode], response: SourceResponse) -> ListingBatch {
    let context = response.request.context
    let zone =
      context["hostname"].flatMap { CraigslistTables.areasByHostname[$0]?.timeZone }
      .flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")
    var listings: [Listing] = []
    var notes: [String] = []
    var ids = Set<String>()
    for (index, row) in rows.enumerated() {
      guard
        let titleLink = row.first("a", class: "result-title") ?? row.first("a", class: "hdrlnk"),
        let href = titleLink.attribute("href"),
        let id = row.attribute("data-pid") ?? SearchPageReader.postingKey(href)
      else {
        notes.append("row \(index + 1) has no posting id or link; skipped")
        continue
      }
      // "Repost of" rows share a posting id with their original: report each posting once.
      guard ids.insert(id).inserted else { continue }
      let url =
        URL(string: href, relativeTo: URL(string: response.finalURL))?.absoluteString ?? href
      let price = row.first("span", class: "result-price").flatMap {
        PriceText.parse($0.textContent)
      }
      let hood = row.first("span", class: "result-hood")?.textContent
        .trimmingCharacters(in: CharacterSet(charactersIn: " ()\n\t"))
      let posted = row.first("time", class: "result-date")?.attribute("datetime")
        .flatMap { Self.localDate($0, in: zone) }
      let images = (row.first("a", class: "result-image")?.attribute("data-ids") ?? "")
        .split(separator: ",").compactMap { SapiRow.imageURL($0, size: "300x300") }
      var listing = Listing(
        id: id, site: "craigslist", url: url, title: HTMLText.normalize(titleLink.textContent),
        price: price, currency: price == nil ? nil : context["currency"], posted: posted,
        location: hood?.isEmpty == false ? hood : nil, area: SearchPageReader.areaName(context),
        imageURLs: images, category: context["category"])
      if let housing = row.first("span", class: "housing") {
        HousingText(housing.textContent).apply(to: &listing)
      }
      listings.append(listing)
    }
    return ListingBatch(listings: listings, notes: notes)
  }

  /// `2021-03-04 12:34` in the area's own time zone.
  static func localDate(_ text: String, in zone: TimeZone?) -> Date? {
    DateFormat.pattern("yyyy-MM-dd HH:mm", zone: zone ?? .current).date(from: text)
  }
}
