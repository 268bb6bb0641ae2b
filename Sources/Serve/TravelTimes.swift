package import ClarissaCore
internal import Foundation

/// Where the pages and the map get each listing's travel times (``Listing/commute``) for the
/// limits of its searches: the store keeps no travel time with a listing, so a listing read
/// back has none until this fills them (from the engines' answers the store keeps, once the
/// run's commute stage is connected here).
package struct TravelTimes: Sendable {
  /// Fills `commute` of each of `listings` for `limits` (one time per limit, in their order);
  /// leaves a listing it knows nothing of as it is.
  package var attach: @Sendable (_ listings: inout [Listing], _ limits: [CommuteLimit]) throws -> Void

  /// Travel times from `attach`.
  package init(
    attach: @escaping @Sendable (_ listings: inout [Listing], _ limits: [CommuteLimit]) throws ->
      Void
  ) {
    self.attach = attach
  }

  /// None added: each listing's `commute` as the store gave it.
  package static let none = TravelTimes { _, _ in }

  /// The most a ``recorded(file:)`` file may hold.
  static let fileLimit = 16 << 20

  /// Times written down in a JSON file, `{"SITE:ID": [{place, by, minutes, note?}], ...}` (as a
  /// listing's `commute` is written): `.ci/browser` serves its store with such a file
  /// (`CLARISSA_SERVE_TRAVEL_TIMES`) until the run's commute stage keeps answers in the store.
  /// Only the times of a listing's limits (by place and mode) are kept, in the limits' order.
  package static func recorded(file: String) throws -> TravelTimes {
    let url = URL(fileURLWithPath: file)
    let size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
    guard size <= fileLimit else {
      throw CocoaError(.fileReadTooLarge, userInfo: [NSFilePathErrorKey: file])
    }
    let times = try JSONDecoder().decode([String: [CommuteTime]].self, from: Data(contentsOf: url))
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
