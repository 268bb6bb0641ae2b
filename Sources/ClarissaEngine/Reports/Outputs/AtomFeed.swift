internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// Atom 1.0 (RFC 4287) for recent listings: stable entry ids (`urn:clarissa:<site>:<id>`), the
/// listing's page as the link, price, place and description as the summary.
public enum AtomFeed {
  /// `file` is the feed's own file name: its `rel="self"` link is that name, a relative
  /// reference (RFC 4287 4.2.7 takes an IRI reference; RFC 3986 resolves it against the URL the
  /// feed was fetched from), so it is right wherever the folder is served, with no setting.
  static func render(
    title: String, id: String, file: String, entries: [RecentListing], updated: Date
  ) -> String {
    var lines = [
      #"<?xml version="1.0" encoding="utf-8"?>"#,
      #"<feed xmlns="http://www.w3.org/2005/Atom">"#,
      "  <title>\(MarkupText.escape(title))</title>",
      "  <id>\(MarkupText.escape(id))</id>",
      "  <link rel=\"self\" type=\"application/atom+xml\" href=\"\(MarkupText.escape(file))\"/>",
      "  <updated>\(MarkupText.timestamp(updated))</updated>",
      "  <author><name>clarissa</name></author>",
      #"  <generator uri="https://github.com/clarissa-watch/clarissa">clarissa</generator>"#,
    ]
    for entry in entries.sorted(by: HTMLPage.newestFirst) {
      let listing = entry.listing
      let facts = [
        Money.format(listing), listing.location ?? listing.area,
      ].compactMap { $0 }.joined(separator: " · ")
      let summary = [facts, listing.description].filter { !$0.isEmpty }.joined(separator: "\n\n")
      lines += [
        "  <entry>",
        "    <id>\(MarkupText.escape(entryID(entry)))</id>",
        "    <title>\(MarkupText.escape(entryTitle(listing)))</title>",
        "    <link rel=\"alternate\" type=\"text/html\" href=\"\(MarkupText.escape(listing.url))\"/>",
        "    <updated>\(MarkupText.timestamp(entry.found))</updated>",
      ]
      if let posted = listing.posted {
        lines.append("    <published>\(MarkupText.timestamp(posted))</published>")
      }
      lines.append("    <category term=\"\(MarkupText.escape(entry.search))\"/>")
      if let event = listing.event {
        lines.append(
          "    <category scheme=\"urn:clarissa:event\" term=\"\(event.kind.rawValue)\"/>")
      }
      if !summary.isEmpty {
        lines.append("    <summary type=\"text\">\(MarkupText.escape(summary))</summary>")
      }
      if let image = listing.imageURLs.first {
        lines.append(
          "    <link rel=\"enclosure\" type=\"\(imageType(image))\" href=\"\(MarkupText.escape(image))\"/>"
        )
      }
      lines.append("  </entry>")
    }
    lines.append("</feed>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A listing's entry id, `urn:clarissa:<site>:<id>`; a change is an entry of its own
  /// (`...:price_drop:<unix time>`), so a reader that never shows an entry twice shows it.
  static func entryID(_ entry: RecentListing) -> String {
    let listing = entry.listing
    let id = "urn:clarissa:\(slug(listing.site)):\(slug(listing.id))"
    guard let event = listing.event, event.kind != .new else { return id }
    return id + ":\(event.kind.rawValue):\(Int(entry.found.timeIntervalSince1970))"
  }

  /// The title, after the change for a change: `$450 → $380 (-16%) · Oak desk`,
  /// `back at $380 · Oak desk`.
  static func entryTitle(_ listing: Listing) -> String {
    guard let event = listing.event, event.kind != .new else { return listing.title }
    return "\(Change.describe(listing) ?? event.kind.words) · \(listing.title)"
  }

  /// The media type a photo's URL names by its extension; JPEG, what listing sites serve, else.
  static func imageType(_ url: String) -> String {
    let path = URLComponents(string: url)?.path.lowercased() ?? url.lowercased()
    if path.hasSuffix(".png") { return "image/png" }
    if path.hasSuffix(".webp") { return "image/webp" }
    if path.hasSuffix(".gif") { return "image/gif" }
    return "image/jpeg"
  }

  /// A file-name- and URN-safe form of a name.
  static func slug(_ text: String) -> String {
    String(
      text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
  }
}
