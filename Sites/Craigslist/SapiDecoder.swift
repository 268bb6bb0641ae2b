internal import ClarissaCore
internal import Foundation
internal import SiteFormat

/// Decodes Craigslist's JSON search API (`sapi`, version 8) as CRAIGSLIST.md describes: positional
/// rows decoded against `data.decode`, the title found wherever it stands in the row, nearby-area
/// rows dropped unless asked for, `decode: 0` read as "no results", `errors[]` as an error.
enum SapiDecoder {
  struct Tables {
    let minPostingID: Int
    let minPostedDate: Int
    let version: Int
    let locations: [Any]
    let descriptions: [Any]
    let neighborhoods: [Any]
  }

  static func decode(_ response: SourceResponse) throws -> ListingBatch {
    let root: [String: Any]
    do {
      guard
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
      else { throw SiteError("the sapi answer is not a JSON object") }
      root = object
    } catch let error as SiteError {
      throw error
    } catch {
      throw SiteError("the sapi answer is not valid JSON (\(AnswerSnippet.of(response.body)))")
    }
    if let errors = root["errors"] as? [Any], !errors.isEmpty {
      let text = errors.map { ($0 as? [String: Any])?["message"] as? String ?? "\($0)" }
      throw SiteError("sapi answered with errors: \(text.joined(separator: "; "))")
    }
    guard let data = root["data"] as? [String: Any] else {
      throw SiteError("the sapi answer has no 'data'")
    }
    // `decode: 0` is sapi's way of saying "no results" (not a block).
    guard let decode = data["decode"] as? [String: Any] else { return ListingBatch(listings: []) }
    guard let minPostingID = integer(decode["minPostingId"]),
      let minPostedDate = integer(decode["minPostedDate"])
    else { throw SiteError("the sapi 'decode' table lacks minPostingId or minPostedDate") }
    let tables = Tables(
      minPostingID: minPostingID, minPostedDate: minPostedDate,
      version: integer(decode["version"]) ?? 1, locations: decode["locations"] as? [Any] ?? [],
      descriptions: decode["locationDescriptions"] as? [Any] ?? [],
      neighborhoods: decode["neighborhoods"] as? [Any] ?? [])
    let context = response.request.context
    let areaID =
      Int(context["areaID"] ?? "") ?? integer((data["location"] as? [String: Any])?["areaId"])
    let includeNearby = context["includeNearby"] == "true"
    let areas = data["areas"] as? [String: Any] ?? [:]
    var listings: [Listing] = []
    var notes: [String] = []
    var nearby = 0
    for (index, raw) in (data["items"] as? [Any] ?? []).enumerated() {
      guard let row = raw as? [Any] else {
        notes.append("row \(index + 1) is not a list; skipped")
        continue
      }
      do {
        let decoded = try SapiRow(row, tables: tables)
        if let areaID, decoded.areaID != areaID, !includeNearby {
          nearby += 1
          continue
        }
        let currency = (areas[String(decoded.areaID)] as? [String: Any])?["currency"] as? String
        var listing = decoded.listing(currency: currency ?? context["currency"])
        listing.duplicateGroup = decoded.duplicateGroup.map { "\(response.request.url)#\($0)" }
        listings.append(listing)
      } catch let error as SiteError {
        notes.append("row \(index + 1): \(error.message); skipped")
      }
    }
    if nearby > 0 {
      notes.append("dropped \(nearby) rows from nearby areas (include_nearby: true keeps them)")
    }
    return ListingBatch(listings: listings, notes: notes)
  }

  /// A JSON number as an integer. (On Linux, NSNumber 0 and 1 also cast to Bool, so a Bool
  /// check would refuse them: sapi never puts booleans where numbers belong.)
  static func integer(_ value: Any?) -> Int? {
    CheckedNumber.integer(value)
  }
}

/// One positional sapi row.
struct SapiRow {
  let postingID: Int
  let posted: Date
  let categoryID: Int
  let price: Double?
  let areaID: Int
  let hostname: String
  let subarea: String?
  let locationText: String?
  let coordinates: Coordinates?
  var title: String?
  var uuid: String?
  var slug: String?
  var images: [String] = []
  /// Housing's `[5, bedrooms, square feet]` (0 for either: not given).
  var bedrooms: Double?
  var squareFeet: Double?
  /// The row's negative duplicate-group number: rows of one answer that share it are posts of
  /// one item (reposts, cross-posts), in Craigslist's own judgement.
  var duplicateGroup: Int?

  init(_ row: [Any], tables: SapiDecoder.Tables) throws {
    guard row.count >= 5, let idOffset = SapiDecoder.integer(row[0]),
      let dateOffset = SapiDecoder.integer(row[1]), let location = row[4] as? String
    else { throw SiteError("too short or of the wrong shape") }
    guard let id = CheckedNumber.sum(tables.minPostingID, idOffset),
      let seconds = CheckedNumber.sum(tables.minPostedDate, dateOffset)
    else {
      throw SiteError("an id or date offset beyond any real posting (\(idOffset), \(dateOffset))")
    }
    postingID = id
    posted = Date(timeIntervalSince1970: TimeInterval(seconds))
    categoryID = SapiDecoder.integer(row[2]) ?? 0
    let rawPrice = SapiDecoder.integer(row[3]) ?? -1
    price = rawPrice < 0 ? nil : Double(rawPrice)
    // "L:D[:N]~lat~lon": indexes into the decode tables, then coordinates.
    let parts = location.split(separator: "~", omittingEmptySubsequences: false)
    let indexes = parts[0].split(separator: ":").map { Int($0) ?? 0 }
    let place = indexes.first.flatMap { Self.entry(tables.locations, $0) as? [Any] } ?? []
    areaID = place.first.flatMap { SapiDecoder.integer($0) } ?? 0
    hostname = place.count > 1 ? place[1] as? String ?? "" : ""
    subarea = place.count > 2 ? place[2] as? String : nil
    let description =
      indexes.count > 1 ? Self.entry(tables.descriptions, indexes[1]) as? String : nil
    let neighborhood =
      indexes.count > 2 ? Self.entry(tables.neighborhoods, indexes[2]) as? String : nil
    locationText = description ?? neighborhood
    if parts.count >= 3, let lat = Double(parts[1]), let lon = Double(parts[2]) {
      coordinates = Coordinates(latitude: lat, longitude: lon)
    } else {
      coordinates = nil
    }
    // Version 2 puts the first photo's size code at [5]; the rest come in any order.
    for element in row.dropFirst(tables.version >= 2 ? 6 : 5) { read(element) }
    guard title != nil else { throw SiteError("no title") }
  }

  private mutating func read(_ element: Any) {
    if let text = element as? String {
      if title == nil { title = text }
      return
    }
    if let number = SapiDecoder.integer(element) {
      if number < 0 { duplicateGroup = number }
      return
    }
    guard let tagged = element as? [Any],
      let tag = tagged.first.flatMap({ SapiDecoder.integer($0) })
    else { return }
    switch tag {
    case 13: uuid = tagged.dropFirst().first as? String
    case 6: slug = tagged.dropFirst().first as? String
    case 4:
      images = tagged.dropFirst().compactMap { $0 as? String }.compactMap { Self.imageURL($0[...]) }
    case 5 where tagged.count >= 3:
      bedrooms = Self.given(tagged[1]).flatMap(FactText.count)
      squareFeet = Self.given(tagged[2])
    default: break
    }
  }

  /// `3:00h0h_4wHIC8zOZOa_0ew0ff` -> `https://images.craigslist.org/00h0h_4wHIC8zOZOa_600x450.jpg`
  /// (the third part is the photo's crop code, not part of its name; older pages write
  /// `1:00h0h_4wHIC8zOZOa`).
  static func imageURL(_ code: Substring, size: String = "600x450") -> String? {
    guard let colon = code.firstIndex(of: ":") else { return nil }
    let parts = code[code.index(after: colon)...].split(separator: "_")
    guard parts.count >= 2 else { return nil }
    return "https://images.craigslist.org/\(parts[0])_\(parts[1])_\(size).jpg"
  }

  /// A housing figure above 0 (sapi writes 0 for one the poster left out).
  private static func given(_ value: Any) -> Double? {
    SapiDecoder.integer(value).flatMap { $0 > 0 ? Double($0) : nil }
  }

  private static func entry(_ table: [Any], _ index: Int) -> Any? {
    index > 0 && index < table.count ? table[index] : nil
  }

  func listing(currency: String?) -> Listing {
    let category = CraigslistTables.categoriesByID[categoryID]?.abbreviation
    let areaName = subarea.map { "\(hostname)/\($0)" } ?? hostname
    let path = [subarea, category ?? "sss"].compactMap { $0 }.joined(separator: "/")
    let url =
      slug.map { "https://\(hostname).craigslist.org/\(path)/d/\($0)/\(postingID).html" }
      ?? uuid.map { "https://www.craigslist.org/view/d/posting/\($0)" }
      ?? "https://\(hostname).craigslist.org/\(path)/\(postingID).html"
    var listing = Listing(
      id: String(postingID), site: "craigslist", url: url, title: title ?? "", price: price,
      currency: price == nil ? nil : currency, posted: posted, location: locationText,
      area: areaName, coordinates: coordinates, imageURLs: images, category: category)
    listing.bedrooms = bedrooms
    // A home's floor area when the post counts bedrooms; without them (land, a lot, parking)
    // the square feet are the land's: kept as a fact, not a floor area a filter would read.
    if let squareFeet, let area = FactText.area(squareFeet, in: .squareFeet) {
      if bedrooms != nil {
        listing.floorArea = area
        listing.floorAreaUnit = .squareFeet
      } else {
        listing.facts["area"] = "\(CheckedNumber.grouped(Int(squareFeet))) ft²"
      }
    }
    return listing
  }
}
