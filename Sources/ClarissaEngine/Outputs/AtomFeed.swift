import ClarissaCore
import Foundation

/// Atom 1.0 (RFC 4287) for recent listings: stable entry ids (`urn:clarissa:<site>:<id>`), the
/// listing's page as the link, price, place and description as the summary.
enum AtomFeed {
  static func render(title: String, id: String, entries: [RecentListing], updated: Date) -> String {
    var lines = [
      #"<?xml version="1.0" encoding="utf-8"?>"#,
      #"<feed xmlns="http://www.w3.org/2005/Atom">"#,
      "  <title>\(escape(title))</title>",
      "  <id>\(escape(id))</id>",
      "  <updated>\(timestamp(updated))</updated>",
      "  <author><name>clarissa</name></author>",
      #"  <generator uri="https://github.com/clarissa-watch/clarissa">clarissa</generator>"#,
    ]
    for entry in entries.sorted(by: HTMLPage.newestFirst) {
      let listing = entry.listing
      let facts = [
        listing.price.map { Money.format($0, listing.currency) }, listing.location ?? listing.area,
      ].compactMap { $0 }.joined(separator: " · ")
      let summary = [facts, listing.description].filter { !$0.isEmpty }.joined(separator: "\n\n")
      lines += [
        "  <entry>",
        "    <id>urn:clarissa:\(escape(slug(listing.site))):\(escape(slug(listing.id)))</id>",
        "    <title>\(escape(listing.title))</title>",
        "    <link rel=\"alternate\" type=\"text/html\" href=\"\(escape(listing.url))\"/>",
        "    <updated>\(timestamp(entry.found))</updated>",
      ]
      if let posted = listing.posted {
        lines.append("    <published>\(timestamp(posted))</published>")
      }
      lines.append("    <category term=\"\(escape(entry.search))\"/>")
      if !summary.isEmpty {
        lines.append("    <summary type=\"text\">\(escape(summary))</summary>")
      }
      if let image = listing.imageURLs.first {
        lines.append("    <link rel=\"enclosure\" type=\"image/jpeg\" href=\"\(escape(image))\"/>")
      }
      lines.append("  </entry>")
    }
    lines.append("</feed>")
    return lines.joined(separator: "\n") + "\n"
  }

  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }

  /// Text safe in XML content and attributes; control characters XML forbids are dropped.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// A file-name- and URN-safe form of a name.
  static func slug(_ text: String) -> String {
    String(
      text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
  }
}
