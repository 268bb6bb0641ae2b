/// When the feed reader turns an item's HTML description into plain text.
public enum TextConversion: Sendable, Equatable {
  /// While parsing: ``FeedItem/text`` holds it (the default; the golden files are written so).
  case eager
  /// On demand: an item's description that needs the HTML parser (it holds `<` or `&`) is left
  /// in ``FeedItem/html`` with ``FeedItem/text`` empty, for the reader of the item to convert
  /// only if it needs to. Items without a guid or link convert all the same: their id is a hash
  /// of the text.
  case deferred
}
