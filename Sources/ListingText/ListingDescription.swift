public import ClarissaCore
internal import Foundation
internal import Markup
internal import Synchronization

/// Turns a listing's pending description HTML (``Listing/descriptionHTML``) into its plain text,
/// on demand. Sites leave descriptions unconverted so that a poll where every listing is already
/// known never runs the HTML parser; the run resolves only the listings it has not seen (and
/// `explain`, `inspect` resolve all) before anything reads ``Listing/description``.
public enum ListingDescription {
  /// The listing with ``Listing/description`` made from its pending HTML and
  /// ``Listing/descriptionHTML`` cleared; unchanged when nothing is pending.
  public static func resolve(_ listing: Listing) -> Listing {
    guard let html = listing.descriptionHTML else { return listing }
    var resolved = listing
    // Entities (`&#27;`) can spell what the HTML's bytes did not: cleaned once made text.
    resolved.description = SafeText.lines(shared.plainText(fromHTML: html))
    resolved.descriptionHTML = nil
    return resolved
  }

  /// Every listing resolved, in order.
  public static func resolve(_ listings: [Listing]) -> [Listing] {
    listings.map(resolve)
  }

  /// Plain text of description HTML, exactly as the feed reader converts it at parse time.
  public static func plainText(fromHTML html: String) -> String {
    shared.plainText(fromHTML: html)
  }

  /// One libxml2 parser context for the process: making a context costs more than reading a
  /// short description. The lock makes it safe from any thread; runs convert from one.
  private static let shared = SharedConverter()

  private final class SharedConverter: Sendable {
    /// The parser context, used under the lock.
    private let converter = Mutex(HTMLText.Converter())

    func plainText(fromHTML html: String) -> String {
      converter.withLock { $0.plainText(fromHTML: html) }
    }
  }
}
