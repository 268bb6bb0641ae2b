internal import ClarissaCore
internal import Curl
internal import Foundation
internal import ListingStore
internal import ListingText

/// A photo's bytes made its fingerprint: the 64-bit difference hash and the picture's size, or
/// why it was refused (too large, not a picture, truncated). The run is handed one
/// (``Runner/photoHasher``): module Photos' decoder and `dhash`, from the command line.
public typealias PhotoHasher = @Sendable ([UInt8]) -> PhotoHashing

/// What a ``PhotoHasher`` made of a photo's bytes.
public enum PhotoHashing: Sendable, Equatable {
  /// Its hash and size in pixels.
  case hash(UInt64, width: Int, height: Int)
  /// Refused, and why.
  case refused(String)
}

/// The photo fingerprints of a search's new listings (issue 43, ``PhotoSettings``), fetched
/// before the search is judged: a repost whose photo was uploaded again is then one photo with
/// its original in the run it appears, and the same flat on another site found by its photo.
/// That costs the photos' requests before the search's new listings are announced (one per
/// photo host per `http.min_delay`, 2 photos per new listing by default); announcing first and
/// fetching after would have a repost announced before its photo could tell it.
///
/// Only listings the search has not seen, that its filters take, of a source it knows (a
/// primed search or source fetches none), their first `per_listing` http(s) photos not kept
/// yet, at most `per_run` in a run. The requests go through the run's ``RequestScheduler``
/// like the searches' (per-host pace, cool-downs, retries); an answer larger than `maxBytes`,
/// not 200, or refused by the hasher is kept with its note and fails nothing.
struct PhotoFetch {
  let settings: PhotoSettings
  let hasher: PhotoHasher
  /// The largest photo read, in bytes.
  let maxBytes: Int

  /// What one search's fetch did: photos asked, kept with a hash, refused (with the first
  /// reasons), and the cool-downs set.
  struct Done {
    /// Requests made (what the run's cap counts).
    var requested = 0
    /// Photos answered or failed, kept.
    var asked = 0
    var hashed = 0
    var refused: [String] = []
    var cooldowns: [String: Cooldown] = [:]

    /// The search's note: nil when nothing was refused.
    var note: String? {
      guard !refused.isEmpty else { return nil }
      return "photos: \(refused.count) of \(asked) not fingerprinted ("
        + refused.prefix(2).joined(separator: "; ") + (refused.count > 2 ? "; ..." : "") + ")"
    }
  }

  /// The addresses to fetch for `listings`: each one's first `perListing` http(s) photos,
  /// once each, in order.
  static func wanted(_ listings: [Listing], perListing: Int) -> [String] {
    var seen = Set<String>()
    var urls: [String] = []
    for listing in listings {
      for url in listing.imageURLs.filter(isWeb).prefix(perListing)
      where seen.insert(url).inserted {
        urls.append(url)
      }
    }
    return urls
  }

  /// Whether `url` is an absolute http(s) address with a host.
  static func isWeb(_ url: String) -> Bool {
    guard let components = URLComponents(string: url),
      ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
      !(components.host ?? "").isEmpty
    else { return false }
    return true
  }

  /// The listings of `reading` that the search would judge new: not seen by it, taken by its
  /// filters, from a source it knows (or with `notifyFirstRun`); none for a primed search.
  static func candidates(
    _ planned: PlannedSearch, reading: SearchReading, memory: any ListingMemory,
    options: RunOptions
  ) throws -> [Listing] {
    guard !planned.prime else { return [] }
    var listings: [Listing] = []
    var keys = Set<ListingKey>()
    for batch in reading.batches
    where options.notifyFirstRun || planned.memory?.knows(source: batch.url) == true {
      for listing in batch.listings where keys.insert(listing.key).inserted {
        listings.append(listing)
      }
    }
    guard !listings.isEmpty else { return [] }
    let seen = try memory.lookUp(search: planned.search.name, keys: listings.map(\.key))
    return listings.filter { listing in
      seen[listing.key] == nil
        && ListingFilter.accepts(ListingDescription.resolve(listing), for: planned.search)
    }
  }

  /// Fetches and keeps the fingerprints of `listings`' photos, at most `left`.
  func fetch(
    _ listings: [Listing], search: String, left: Int, scheduler: RequestScheduler,
    memory: any ListingMemory, now: Date
  ) async throws -> Done {
    var done = Done()
    let wanted = Self.wanted(listings, perListing: settings.perListing)
    guard !wanted.isEmpty, left > 0 else { return done }
    let kept = try memory.photoHashes(wanted)
    let urls = wanted.filter { kept[$0] == nil }.prefix(left)
    guard !urls.isEmpty else { return done }
    let jobs = urls.map { url in
      FetchJob(
        search: search,
        request: RequestSpec(
          url: url, headers: ["Accept": "image/jpeg,image/png,image/webp"], mode: "photo",
          allowsConditionalGET: false),
        politeness: Self.politeness)
    }
    done.requested = jobs.count
    let (outcomes, cooled) = await scheduler.run(
      jobs, validators: [:], cooldowns: try memory.cooldowns(), now: now)
    done.cooldowns = cooled
    var photos: [PhotoHash] = []
    for outcome in outcomes {
      let url = outcome.job.request.url
      let kept: PhotoHash?
      switch outcome.status {
      case .answered(let response):
        kept = photo(url, response, at: now)
      case .failed(let why):
        kept = PhotoHash(
          url: url, hash: nil, width: 0, height: 0, fetchedAt: now, note: SafeText.line(why))
      case .notModified, .blocked, .skipped:
        // Not asked, or the host refused us: nothing is known of the photo itself.
        kept = nil
      }
      guard let kept else { continue }
      done.asked += 1
      if kept.hash != nil {
        done.hashed += 1
      } else if let note = kept.note {
        done.refused.append("\(Fingerprint.photoName(url)): \(note)")
      }
      photos.append(kept)
    }
    try memory.rememberPhotoHashes(photos)
    return done
  }

  /// What a photo's answer is kept as.
  private func photo(_ url: String, _ response: HTTPResponse, at now: Date) -> PhotoHash {
    func refused(_ why: String) -> PhotoHash {
      PhotoHash(url: url, hash: nil, width: 0, height: 0, fetchedAt: now, note: why)
    }
    guard response.status == 200 else { return refused("HTTP \(response.status)") }
    guard response.body.count <= maxBytes else {
      return refused("\(response.body.count) bytes, more than the \(maxBytes) read")
    }
    switch hasher(response.body) {
    case .hash(let hash, let width, let height):
      return PhotoHash(
        url: url, hash: hash, width: max(0, width), height: max(0, height), fetchedAt: now)
    case .refused(let why):
      return refused(SafeText.cut(SafeText.line(why), to: 200) ?? "refused")
    }
  }

  /// A photo host's pace when the config says nothing longer: a second between two photos of
  /// one host (`http.min_delay`, 3 s by default, is the larger and wins).
  static let politeness = Politeness(
    minimumDelay: 1, jitter: 0.5, concurrencyPerHost: 1, minimumInterval: 0)
}
