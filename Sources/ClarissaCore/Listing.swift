public import Foundation

/// One ad, as every site adapter reports it.
public struct Listing: Sendable, Equatable {
  /// The facts, behind one reference: a listing is copied often (into judgements, batches,
  /// messages), and a copy of a reference costs one retain where a copy of twenty-six fields
  /// cost one for each text and list in them. Writing to a shared listing copies the facts first
  /// (copy on write), so a listing behaves as the value it always was.
  private var box: Box

  /// The stored facts.
  struct Fields: Equatable {
    var id: String
    var site: String
    var url: String
    var title: String
    var description: String = ""
    var descriptionHTML: String?
    var event: ListingEvent? = nil
    var price: Double?
    var priceHigh: Double? = nil
    var currency: String?
    var posted: Date?
    var location: String?
    var area: String?
    var coordinates: Coordinates?
    var imageURLs: [String] = []
    var category: String?
    var rooms: Double? = nil
    var roomsHigh: Double? = nil
    var bedrooms: Double? = nil
    var bathrooms: Double? = nil
    var floorArea: Double? = nil
    var floorAreaHigh: Double? = nil
    var floorAreaUnit: AreaUnit? = nil
    var sellerSince: Date? = nil
    var postcode: String? = nil
    var address: String? = nil
    var facts: [String: String] = [:]
    var duplicateGroup: String? = nil
    var alsoPostedAs: [String]? = nil
    var alert: ListingAlert? = nil
    var signals: [ListingSignal] = []
    var commute: [CommuteTime] = []
  }

  final class Box: @unchecked Sendable {
    // Copy on write, without a lock: only ever written through a listing that holds the one
    // reference to it (`isKnownUniquelyReferenced` in `fields`), so never while shared.
    var fields: Fields

    init(_ fields: Fields) { self.fields = fields }
  }

  /// The facts, made this listing's own before a write: every member reads and writes
  /// through here.
  private var fields: Fields {
    get { box.fields }
    _modify {
      if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
      yield &box.fields
    }
  }

  public static func == (lhs: Listing, rhs: Listing) -> Bool {
    lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
  }

  /// Stable id within its site (Craigslist: the posting id; feeds: guid, else link, else hash).
  public var id: String {
    get { fields.id }
    _modify { yield &fields.id }
  }

  /// The site adapter's id (`craigslist`).
  public var site: String {
    get { fields.site }
    _modify { yield &fields.site }
  }

  /// The listing's web page.
  public var url: String {
    get { fields.url }
    _modify { yield &fields.url }
  }

  /// Plain-text title.
  public var title: String {
    get { fields.title }
    _modify { yield &fields.title }
  }

  /// Plain-text description (may be empty: search results often carry none). Empty while
  /// ``descriptionHTML`` is pending.
  public var description: String {
    get { fields.description }
    _modify { yield &fields.description }
  }

  /// The description as the site gave it (HTML), not yet made plain text: sites leave it so
  /// that a poll where nothing is new never converts it. `ListingDescription.resolve` (module
  /// `ListingText`) fills ``description`` and clears this; nil once resolved or when the site
  /// gave plain text. Encoded only while pending, so a resolved listing's JSON is unchanged.
  public var descriptionHTML: String? {
    get { fields.descriptionHTML }
    _modify { yield &fields.descriptionHTML }
  }

  /// Why a listing already seen is announced again (a price change, a return); nil for a new
  /// one. Encoded only when set.
  public var event: ListingEvent? {
    get { fields.event }
    _modify { yield &fields.event }
  }

  /// Price, when the listing states one.
  public var price: Double? {
    get { fields.price }
    _modify { yield &fields.price }
  }

  /// The top of a price the site gives as a range ("505.900 - 999.900 €"); ``price`` is its
  /// bottom. Nil for one price.
  public var priceHigh: Double? {
    get { fields.priceHigh }
    _modify { yield &fields.priceHigh }
  }

  /// ISO 4217 currency of `price` (`USD`), when known.
  public var currency: String? {
    get { fields.currency }
    _modify { yield &fields.currency }
  }

  /// When it was posted.
  public var posted: Date? {
    get { fields.posted }
    _modify { yield &fields.posted }
  }

  /// The poster's own place text (`SOMA / south beach`).
  public var location: String? {
    get { fields.location }
    _modify { yield &fields.location }
  }

  /// The site's area it belongs to (`sfbay`, `sfbay/eby`).
  public var area: String? {
    get { fields.area }
    _modify { yield &fields.area }
  }

  /// Where it is, when the site says.
  public var coordinates: Coordinates? {
    get { fields.coordinates }
    _modify { yield &fields.coordinates }
  }

  /// Photos, largest useful size first.
  public var imageURLs: [String] {
    get { fields.imageURLs }
    _modify { yield &fields.imageURLs }
  }

  /// The site's category code (`ele`, `apa`).
  public var category: String? {
    get { fields.category }
    _modify { yield &fields.category }
  }

  /// Rooms, as the site counts them (decimal: "2,5 Zi." is 2.5).
  public var rooms: Double? {
    get { fields.rooms }
    _modify { yield &fields.rooms }
  }

  /// The top of rooms given as a range ("2 - 4"); ``rooms`` is its bottom.
  public var roomsHigh: Double? {
    get { fields.roomsHigh }
    _modify { yield &fields.roomsHigh }
  }

  /// Bedrooms.
  public var bedrooms: Double? {
    get { fields.bedrooms }
    _modify { yield &fields.bedrooms }
  }

  /// Bathrooms (a half bath counts a half).
  public var bathrooms: Double? {
    get { fields.bathrooms }
    _modify { yield &fields.bathrooms }
  }

  /// Floor area in square metres, whatever unit the site gave it in (``floorAreaUnit``).
  public var floorArea: Double? {
    get { fields.floorArea }
    _modify { yield &fields.floorArea }
  }

  /// The top of a floor area given as a range ("63,33 - 162,38 m²"), in square metres;
  /// ``floorArea`` is its bottom.
  public var floorAreaHigh: Double? {
    get { fields.floorAreaHigh }
    _modify { yield &fields.floorAreaHigh }
  }

  /// The unit the site gives floor areas in (``AreaUnit``), so that it is shown in it unless
  /// the config says otherwise.
  public var floorAreaUnit: AreaUnit? {
    get { fields.floorAreaUnit }
    _modify { yield &fields.floorAreaUnit }
  }

  /// The postcode, when the site says.
  public var postcode: String? {
    get { fields.postcode }
    _modify { yield &fields.postcode }
  }

  /// The street address or the place as the site writes it (not the poster's ``location``).
  public var address: String? {
    get { fields.address }
    _modify { yield &fields.address }
  }

  /// The site's other facts (name -> text: "Etage" -> "3", "pets" -> "cats ok"), shown on the
  /// listing's page.
  public var facts: [String: String] {
    get { fields.facts }
    _modify { yield &fields.facts }
  }

  /// The site's own word that this post and others in the same answer are one item (Craigslist
  /// sapi's negative group number, scoped by the answer's address). It means nothing outside
  /// that answer, so it is neither stored nor encoded.
  public var duplicateGroup: String? {
    get { fields.duplicateGroup }
    _modify { yield &fields.duplicateGroup }
  }

  /// Other ids of the same item that its search folded into this listing (reposts,
  /// cross-posts), where a message carries them; encoded only when known.
  public var alsoPostedAs: [String]? {
    get { fields.alsoPostedAs }
    _modify { yield &fields.alsoPostedAs }
  }

  /// Marks and deal context (``ListingAlert``), filled at delivery and display time from the
  /// store; encoded only when present.
  public var alert: ListingAlert? {
    get { fields.alert }
    _modify { yield &fields.alert }
  }

  /// When the seller's account was made, where the site says (OLX's `user.created`): the
  /// warning sign `new-seller` reads it.
  public var sellerSince: Date? {
    get { fields.sellerSince }
    _modify { yield &fields.sellerSince }
  }

  /// Warning signs (``ListingSignal``) the store keeps for it, filled at delivery and display
  /// time like ``alert``; encoded only when there are.
  public var signals: [ListingSignal] {
    get { fields.signals }
    _modify { yield &fields.signals }
  }

  /// The listing's travel times (``CommuteTime``), one per `commute:` entry of its search, in
  /// its order: filled by the run's commute stage and, for a listing read back from the store,
  /// from the engines' answers the store keeps. Not a fact of the listing: never stored with
  /// it; encoded (`commute`) only when there are.
  public var commute: [CommuteTime] {
    get { fields.commute }
    _modify { yield &fields.commute }
  }

  /// Creates a listing.
  public init(
    id: String, site: String, url: String, title: String, description: String = "",
    descriptionHTML: String? = nil, price: Double? = nil, currency: String? = nil,
    posted: Date? = nil, location: String? = nil, area: String? = nil,
    coordinates: Coordinates? = nil, imageURLs: [String] = [], category: String? = nil
  ) {
    box = Box(
      Fields(
        id: id, site: site, url: url, title: title, description: description,
        descriptionHTML: descriptionHTML, price: price, currency: currency, posted: posted,
        location: location, area: area, coordinates: coordinates, imageURLs: imageURLs,
        category: category))
  }
}

/// Shown field by field (a test's failure, `dump`), as before the facts moved behind a box.
extension Listing: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(self, children: Mirror(reflecting: box.fields).children, displayStyle: .struct)
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
