package import ClarissaCore
internal import Foundation

/// Where the pages and the map get each listing's travel times (``Listing/commute``) for the
/// limits of its searches: the store keeps no travel time with a listing, so a listing read
/// back has none until this fills them (from the engines' answers the store keeps, once the
/// run's commute stage is connected here).
package struct TravelTimes: Sendable {
  /// Fills `commute` of each of `listings` for `limits` (one time per limit, in their order);
  /// leaves a listing it knows nothing of as it is.
  package var attach:
    @Sendable (_ listings: inout [Listing], _ limits: [CommuteLimit]) throws -> Void

  /// Travel times from `attach`.
  package init(
    attach:
      @escaping @Sendable (_ listings: inout [Listing], _ limits: [CommuteLimit]) throws ->
      Void
  ) {
    self.attach = attach
  }

  /// None added: each listing's `commute` as the store gave it.
  package static let none = TravelTimes { _, _ in }

  /// The most a ``Recorded`` file may hold.
  static let fileLimit = 16 << 20

  /// Times written down in a JSON file, `{"times": {"SITE:ID": [{place, by, minutes, note?}]},
  /// "limits": {"SEARCH": [{place, by, max}]}}` (a time as a listing's `commute` is written):
  /// `.ci/browser` serves its store with such a file (`CLARISSA_SERVE_TRAVEL_TIMES`) until the
  /// run's commute stage keeps answers in the store, and gives `limits` only while the config
  /// reader does not read `commute:` (a search's own limits win).
  package struct Recorded: Decodable, Sendable {
    /// A search's limit as the file writes it.
    package struct Limit: Decodable, Sendable {
      var place: String
      var by: TravelMode
      var max: Double
    }

    var times: [String: [CommuteTime]]
    var limits: [String: [Limit]]?

    /// The file's content (at most ``TravelTimes/fileLimit`` bytes).
    package static func read(file: String) throws -> Recorded {
      let url = URL(fileURLWithPath: file)
      let size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
      guard size <= fileLimit else {
        throw CocoaError(.fileReadTooLarge, userInfo: [NSFilePathErrorKey: file])
      }
      return try JSONDecoder().decode(Recorded.self, from: Data(contentsOf: url))
    }

    /// The limits the file gives `search`, their places found among `places` (a limit whose
    /// place is not there is left out).
    package func limits(of search: String, places: [NamedPlace]) -> [CommuteLimit] {
      (limits?[search] ?? []).compactMap { limit in
        places.first { $0.name == limit.place }.map {
          CommuteLimit(place: $0, mode: limit.by, maxMinutes: limit.max)
        }
      }
    }

    /// The times, each listing's for its limits (by place and mode), in the limits' order.
    package var travelTimes: TravelTimes {
      let times = times
      return TravelTimes { listings, limits in
        for index in listings.indices {
          let key = listings[index].site + ":" + listings[index].id
          guard let known = times[key] else { continue }
          listings[index].commute = limits.compactMap { limit in
            known.first { $0.place == limit.place.name && $0.by == limit.mode }
          }
        }
      }
    }
  }
}
