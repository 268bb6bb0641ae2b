internal import ClarissaCore
internal import Foundation

/// The map's data, `/api/map`: a marker per listing with coordinates that the filters find.
/// Written as JSON directly (``json``): Foundation's encoder took most of a second for 10,000
/// markers.
struct MapData {
  /// One listing on the map, with what its popup shows (every text as text).
  struct Marker {
    /// `SITE:ID`.
    var key: String
    var searches: [String]
    var lat: Double
    var lon: Double
    var title: String
    var price: String?
    /// The last change of price in whole percent, when it was a drop.
    var drop: Int?
    /// "2 rooms · 1 bath · 50 m²" (``ListingFacts/summary(_:unit:)``).
    var facts: String?
    /// "2.1 km from work" from each place of the listing's searches.
    var distances: String?
    /// The postcode and address, else the poster's place.
    var place: String?
    /// The warning signs' lines (``ListingSignal``), shown `⚠ ...` in the popup.
    var signals: [String] = []
    /// The first photo, when it is an `http:`/`https:` address.
    var photo: String?
    /// Its travel times (``Listing/commute``), each with its search's limit.
    var commute: [Commute] = []
    /// `drop`, `unviewed` or `viewed`: the marker's colour.
    var state: String
    /// The listing's page in clarissa (`/listing/SITE/ID`; `/open/SITE/ID` opens it on its site).
    var page: String
    /// The listing on its site (`http:`/`https:` only).
    var url: String?
  }

  /// A listing's travel time to a place and the longest its searches allow: the map colours
  /// the marker by `minutes` against `max`.
  struct Commute {
    var place: String
    var by: TravelMode
    /// Whole minutes (``CommuteTime/shownMinutes``); nil when unknown.
    var minutes: Int?
    /// The search's `max` for this place and mode, in minutes; nil when it has none.
    var max: Double?
    /// "24 min by transit to work" (``CommuteTime/words``).
    var words: String
    /// Farther in a straight line than the limit's bound (``CommuteLimit/reach``): no time,
    /// and beyond the limit all the same.
    var beyondReach = false
  }

  /// A `near:` entry of the searches shown: a circle of `radius` metres round the place.
  struct Circle {
    var name: String
    var lat: Double
    var lon: Double
    var radius: Double
    /// The radius as the config writes its unit: "3 km".
    var words: String
  }

  /// A `commute:` limit of the searches shown, for the legend.
  struct Limit {
    var place: String
    var by: TravelMode
    var max: Double
  }

  /// A named place of the searches shown (`places:`, as their `near` or their distances name
  /// it); drawn as a point.
  struct Place {
    var name: String
    var lat: Double
    var lon: Double
  }

  var markers: [Marker]
  /// The most markers sent (``WebApp/mapLimit``).
  var limit: Int
  /// Whether the filters find more listings with coordinates than were sent.
  var more: Bool
  /// The named places of the searches shown.
  var places: [Place] = []
  /// Where the `within:` areas of the searches shown are (`/api/map/areas?...`, tagged with
  /// their version: the browser keeps them); nil when they have none.
  var areasAt: String?
  /// The `near:` circles of the searches shown.
  var near: [Circle] = []
  /// The `commute:` limits of the searches shown (the markers are coloured by them).
  var limits: [Limit] = []

  /// Compact JSON: `{"count", "limit", "more", "markers": [...], "places": [...], "near":
  /// [...], "limits": [...], "areasAt"}`, a marker's absent values left out.
  var json: [UInt8] {
    var out = "{\"count\":\(markers.count),\"limit\":\(limit),\"more\":\(more),\"markers\":["
    out.reserveCapacity(markers.count * 400)
    for (index, marker) in markers.enumerated() {
      if index > 0 { out += "," }
      marker.write(to: &out)
    }
    out += "],\"places\":["
    out += places.map {
      "{\"name\":\(Self.text($0.name)),\"lat\":\(Self.number($0.lat)),"
        + "\"lon\":\(Self.number($0.lon))}"
    }.joined(separator: ",")
    out += "],\"near\":["
    out += near.map {
      "{\"name\":\(Self.text($0.name)),\"lat\":\(Self.number($0.lat)),"
        + "\"lon\":\(Self.number($0.lon)),\"radius\":\(Self.number($0.radius)),"
        + "\"words\":\(Self.text($0.words))}"
    }.joined(separator: ",")
    out += "],\"limits\":["
    out += limits.map {
      "{\"place\":\(Self.text($0.place)),\"by\":\(Self.text($0.by.rawValue)),"
        + "\"max\":\(Self.number($0.max))}"
    }.joined(separator: ",")
    out += "]"
    if let areasAt { out += ",\"areasAt\":\(Self.text(areasAt))" }
    out += "}\n"
    return Array(out.utf8)
  }

  static func text(_ value: String) -> String { "\"" + JSONString.escaped(value) + "\"" }

  /// A finite number as JSON writes it (a coordinate is checked finite on the way in; anything
  /// else would be no JSON, so it is written 0).
  static func number(_ value: Double) -> String { value.isFinite ? "\(value)" : "0" }
}

extension MapData.Marker {
  /// Appends the marker's object (each piece appended in turn: no text made to be copied).
  func write(to out: inout String) {
    func member(_ name: String, _ value: String?) {
      guard let value else { return }
      out += name
      out += "\""
      out += JSONString.escaped(value)
      out += "\""
    }
    member("{\"key\":", key)
    out += ",\"searches\":["
    for (index, search) in searches.enumerated() { member(index == 0 ? "" : ",", search) }
    out += "],\"lat\":"
    out += MapData.number(lat)
    out += ",\"lon\":"
    out += MapData.number(lon)
    member(",\"title\":", title)
    member(",\"price\":", price)
    member(",\"facts\":", facts)
    member(",\"distances\":", distances)
    member(",\"place\":", place)
    if !signals.isEmpty {
      out += ",\"signals\":["
      for (index, signal) in signals.enumerated() { member(index == 0 ? "" : ",", signal) }
      out += "]"
    }
    member(",\"photo\":", photo)
    if !commute.isEmpty {
      out += ",\"commute\":["
      for (index, time) in commute.enumerated() {
        member(index == 0 ? "{\"place\":" : ",{\"place\":", time.place)
        member(",\"by\":", time.by.rawValue)
        out += ",\"minutes\":" + (time.minutes.map(String.init) ?? "null")
        if let max = time.max { out += ",\"max\":" + MapData.number(max) }
        member(",\"words\":", time.words)
        if time.beyondReach { out += ",\"beyondReach\":true" }
        out += "}"
      }
      out += "]"
    }
    member(",\"url\":", url)
    if let drop { out += ",\"drop\":\(drop)" }
    member(",\"state\":", state)
    member(",\"page\":", page)
    out += "}"
  }
}
