import Foundation

/// One ad, as every site adapter reports it.
public struct Listing: Sendable, Equatable {
  /// Stable id within its site (Craigslist: the posting id; feeds: guid, else link, else hash).
  public var id: String
  /// The site adapter's id (`craigslist`).
  public var site: String
  /// The listing's web page.
  public var url: String
  /// Plain-text title.
  public var title: String
  /// Plain-text description (may be empty: search results often carry none). Empty while
  /// ``descriptionHTML`` is pending.
  public var description: String
  /// The description as the site gave it (HTML), not yet made plain text: sites leave it so
  /// that a poll where nothing is new never converts it. `ListingDescription.resolve` (module
  /// `ListingText`) fills ``description`` and clears this; nil once resolved or when the site
  /// gave plain text. Encoded only while pending, so a resolved listing's JSON is unchanged.
  public var descriptionHTML: String?
  /// Why a listing already seen is announced again (a price change, a return); nil for a new
  /// one. Encoded only when set.
  public var event: ListingEvent? = nil
  /// Price, when the listing states one.
  public var price: Double?
  /// ISO 4217 currency of `price` (`USD`), when known.
  public var currency: String?
  /// When it was posted.
  public var posted: Date?
  /// The poster's own place text (`SOMA / south beach`).
  public var location: String?
  /// The site's area it belongs to (`sfbay`, `sfbay/eby`).
  public var area: String?
  /// Where it is, when the site says.
  public var coordinates: Coordinates?
  /// Photos, largest useful size first.
  public var imageURLs: [String]
  /// The site's category code (`ele`, `apa`).
  public var category: String?
  /// Rooms, as the site counts them (decimal: "2,5 Zi." is 2.5).
  public var rooms: Double? = nil
  /// Bedrooms.
  public var bedrooms: Double? = nil
  /// Bathrooms (a half bath counts a half).
  public var bathrooms: Double? = nil
  /// Floor area in square metres, whatever unit the site gave it in (``floorAreaUnit``).
  public var floorArea: Double? = nil
  /// The unit the site gives floor areas in (``AreaUnit``), so that it is shown in it unless
  /// the config says otherwise.
  public var floorAreaUnit: AreaUnit? = nil
  /// The postcode, when the site says.
  public var postcode: String? = nil
  /// The street address or the place as the site writes it (not the poster's ``location``).
  public var address: String? = nil
  /// The site's other facts (name -> text: "Etage" -> "3", "pets" -> "cats ok"), shown on the
  /// listing's page.
  public var facts: [String: String] = [:]
  /// The site's own word that this post and others in the same answer are one item (Craigslist
  /// sapi's negative group number, scoped by the answer's address). It means nothing outside
  /// that answer, so it is neither stored nor encoded.
  public var duplicateGroup: String? = nil

  /// Other ids of the same item that its search folded into this listing (reposts,
  /// cross-posts), where a message carries them; encoded only when known.
  public var alsoPostedAs: [String]? = nil

  /// Marks and deal context (``ListingAlert``), filled at delivery and display time from the
  /// store; encoded only when present.
  public var alert: ListingAlert? = nil

  /// Creates a listing.
  public init(
    id: String, site: String, url: String, title: String, description: String = "",
    descriptionHTML: String? = nil, price: Double? = nil, currency: String? = nil,
    posted: Date? = nil, location: String? = nil, area: String? = nil,
    coordinates: Coordinates? = nil, imageURLs: [String] = [], category: String? = nil
  ) {
    self.id = id
    self.site = site
    self.url = url
    self.title = title
    self.description = description
    self.descriptionHTML = descriptionHTML
    self.price = price
    self.currency = currency
    self.posted = posted
    self.location = location
    self.area = area
    self.coordinates = coordinates
    self.imageURLs = imageURLs
    self.category = category
  }
}

extension Listing {
  /// Whether the description still waits for its HTML to be converted (``descriptionHTML``).
  public var isDescriptionPending: Bool { descriptionHTML != nil }
}

/// A unit of floor area: the unit a site gives areas in, or the one a config shows them in.
public enum AreaUnit: String, Sendable, Equatable, Codable, CaseIterable {
  /// Square metres.
  case squareMetres = "m2"
  /// Square feet.
  case squareFeet = "ft2"

  /// Square metres in one of this unit.
  public var squareMetres: Double { self == .squareMetres ? 1 : 0.09290304 }

  /// The unit's symbol as shown ("m²", "ft²").
  public var symbol: String { self == .squareMetres ? "m²" : "ft²" }
}

/// A latitude and longitude in degrees.
public struct Coordinates: Sendable, Equatable, Codable {
  /// Degrees north.
  public var latitude: Double
  /// Degrees east.
  public var longitude: Double

  /// Creates coordinates.
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }
}
