internal import ClarissaEngine
internal import Foundation
internal import Photos

/// Module Photos' decoders and difference hash, as the run's ``PhotoHasher``: what a run
/// fetches of a new listing's photos is made its fingerprint here (``PhotoHashing``), within
/// ``PhotoLimits/standard`` (8 MiB, 40,000,000 pixels); a refusal is the photo's note.
enum PhotoFingerprints {
  /// The hasher and the largest photo read, for ``Runner/photoHasher``.
  static let hasher: (hash: PhotoHasher, maxBytes: Int) = (
    { bytes in
      do throws(PhotoRefusal) {
        let print = try PhotoHashing.fingerprint(of: Data(bytes))
        return .hash(print.hash, width: print.width, height: print.height)
      } catch {
        return .refused(error.reason)
      }
    },
    PhotoLimits.standard.maxBytes
  )
}
