internal import Foundation

/// Craigslist's reference tables (areas and posting categories), shipped inside the program.
public enum CraigslistTables {
  /// One Craigslist site (`sfbay`), with the AreaID that sapi needs.
  public struct Area: Sendable {
    /// What users type: `sfbay`, `newyork`.
    public let hostname: String
    /// sapi's numeric id (sfbay 1, newyork 3).
    public let areaID: Int
    /// Craigslist's short code (`sfo`).
    public let abbreviation: String
    /// ISO country code.
    public let country: String
    /// State or province.
    public let region: String
    /// Human name (`SF bay area`).
    public let name: String
    /// IANA time zone.
    public let timeZone: String
    /// Centre latitude.
    public let latitude: Double
    /// Centre longitude.
    public let longitude: Double
    /// Subareas (`eby`, `sfc`), empty for most areas.
    public let subareas: [Subarea]
  }

  /// A part of an area (`sfbay/eby`).
  public struct Subarea: Sendable {
    /// The code after the slash (`eby`).
    public let abbreviation: String
    /// Human name (`east bay area`).
    public let name: String
    /// Numeric id within the area.
    public let subareaID: Int
  }

  /// A posting category (`apa` apartments, `sys` computers by owner).
  public struct Category: Sendable {
    /// The code (`apa`).
    public let abbreviation: String
    /// sapi's numeric id.
    public let categoryID: Int
    /// Human name.
    public let name: String
    /// Craigslist's one-letter section (S sale, H housing, J jobs ...).
    public let type: String
  }

  /// All 707 areas, read once on first use.
  public static let areas: [Area] = [areaUSAtoMLines, areaUSNtoZLines, areaWorldLines]
    .flatMap(readAreas).sorted { $0.areaID < $1.areaID }
  /// All posting categories, read once on first use.
  public static let categories: [Category] = rows(categoryLines).compactMap { fields in
    guard fields.count == 4, let id = Int(fields[1]) else { return nil }
    return Category(abbreviation: fields[0], categoryID: id, name: fields[2], type: fields[3])
  }
  /// Every area's hostname, read from the first field of the tables' area lines without reading
  /// the rest: `validate` asks only whether `sfbay` is an area, and this takes a tenth of the
  /// time of ``areas`` (a test checks that both name the same areas).
  public static let hostnames: Set<String> = Set(
    [areaUSAtoMLines, areaUSNtoZLines, areaWorldLines].flatMap { text in
      text.utf8.split(separator: UInt8(ascii: "\n")).compactMap { line in
        guard let first = line.first, first != UInt8(ascii: "\t") else { return nil }
        let end = line.firstIndex(of: UInt8(ascii: "\t")) ?? line.endIndex
        return String(decoding: line[..<end], as: UTF8.self)
      }
    })
  /// Areas by hostname.
  public static let areasByHostname: [String: Area] = Dictionary(
    areas.map { ($0.hostname, $0) }, uniquingKeysWith: { first, _ in first })
  /// Categories by code.
  public static let categoriesByCode: [String: Category] = Dictionary(
    categories.map { ($0.abbreviation, $0) }, uniquingKeysWith: { first, _ in first })

  /// Search-only codes that group posting categories (not in the posting table): whole sections
  /// and the "by owner + by dealer" pairs of the for-sale section.
  public static let searchCodes: [String: String] = [
    "sss": "for sale", "hhh": "housing", "jjj": "jobs", "ggg": "gigs", "bbb": "services",
    "ccc": "community", "eee": "events", "rrr": "resumes", "rea": "real estate for sale",
    "cta": "cars+trucks", "ela": "electronics", "fua": "furniture", "sya": "computers",
    "bia": "bicycles", "mca": "motorcycles", "tla": "tools", "ppa": "appliances",
    "ata": "antiques", "ara": "arts+crafts", "sna": "atvs/utvs/snow", "pta": "auto parts",
    "baa": "baby+kid", "haa": "health+beauty", "bip": "bicycle parts", "boo": "boats",
    "bpa": "boat parts", "bka": "books", "bfa": "business", "cba": "collectibles",
    "ema": "cds/dvd/vhs", "moa": "cell phones", "cla": "clothes+acc", "syp": "computer parts",
    "gra": "farm+garden", "foa": "general for sale", "hva": "heavy equipment",
    "hsa": "household", "jwa": "jewelry", "maa": "materials", "mpa": "motorcycle parts",
    "msa": "musical instruments", "pha": "photo+video", "rva": "rvs+camping",
    "sga": "sporting goods", "tia": "tickets", "taa": "toys+games", "vga": "video gaming",
    "waa": "wanted", "wta": "wheels+tires", "tra": "trailers", "ava": "aviation",
  ]

  /// The currency an area's prices are in, from its country.
  public static func currency(forCountry country: String) -> String {
    currencies[country] ?? (euroCountries.contains(country) ? "EUR" : "USD")
  }

  private static let currencies = [
    "US": "USD", "CA": "CAD", "GB": "GBP", "AU": "AUD", "NZ": "NZD", "IN": "INR", "MX": "MXN",
    "JP": "JPY", "CN": "CNY", "CH": "CHF", "BR": "BRL", "PH": "PHP", "ZA": "ZAR", "IL": "ILS",
    "RU": "RUB", "HK": "HKD", "SG": "SGD", "NO": "NOK", "SE": "SEK", "DK": "DKK", "AR": "ARS",
    "KR": "KRW", "CZ": "CZK", "PL": "PLN", "TR": "TRY", "HU": "HUF", "TW": "TWD", "TH": "THB",
    "ID": "IDR", "CL": "CLP", "PE": "PEN", "EG": "EGP", "AE": "AED", "MY": "MYR", "VN": "VND",
    "CO": "COP", "UY": "UYU", "RO": "RON", "BG": "BGN", "UA": "UAH", "KE": "KES", "MA": "MAD",
    "PK": "PKR", "BD": "BDT", "IS": "ISK",
  ]
  private static let euroCountries: Set<String> = [
    "DE", "FR", "ES", "IT", "PT", "IE", "NL", "BE", "AT", "FI", "GR", "LU", "HR",
  ]

  /// A posting category's code by its numeric id.
  public static let categoriesByID: [Int: Category] = Dictionary(
    categories.map { ($0.categoryID, $0) }, uniquingKeysWith: { first, _ in first })

  /// The generated tables' lines, split at tabs (`Tables/regenerate.py` writes them; a test
  /// checks the counts, so a broken table shows as a failing test, never as a crash).
  private static func rows(_ text: String) -> [[String]] {
    // By bytes: splitting Characters (grapheme clusters) took most of the time.
    text.utf8.split(separator: UInt8(ascii: "\n")).map { line in
      line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
    }
  }

  private static func readAreas(_ text: String) -> [Area] {
    var areas: [Area] = []
    for fields in rows(text) {
      if fields.first == "" {  // a subarea of the area above
        guard fields.count == 4, let id = Int(fields[2]), let last = areas.popLast() else {
          continue
        }
        areas.append(
          Area(
            hostname: last.hostname, areaID: last.areaID, abbreviation: last.abbreviation,
            country: last.country, region: last.region, name: last.name, timeZone: last.timeZone,
            latitude: last.latitude, longitude: last.longitude,
            subareas: last.subareas + [
              Subarea(abbreviation: fields[1], name: fields[3], subareaID: id)
            ]))
        continue
      }
      guard fields.count == 9, let id = Int(fields[1]), let latitude = Double(fields[7]),
        let longitude = Double(fields[8])
      else { continue }
      areas.append(
        Area(
          hostname: fields[0], areaID: id, abbreviation: fields[2], country: fields[3],
          region: fields[4], name: fields[5], timeZone: fields[6], latitude: latitude,
          longitude: longitude, subareas: []))
    }
    return areas
  }
}
