internal import ClarissaCore
internal import Foundation

/// An RFC 5322 message for one notification: `Date`, `Message-ID`, `From`, `To`, an RFC 2047
/// encoded subject when it is not plain ASCII, and a MIME multipart/alternative body with the
/// plain text and an HTML version that links each listing and its photo. Both parts are base64
/// so no server's line-length or 8-bit limits matter.
enum MailMessage {
  /// Whether `text` is a mail address (`me@example.com`).
  static func isAddress(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
      !parts[1].hasPrefix("."), !parts[1].hasSuffix(".")
    else { return false }
    return !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" })
  }

  static func build(
    _ message: Message, listings: [Listing], from: String, to: [String], date: Date = Date()
  ) -> [UInt8] {
    let boundary = "clarissa-" + UUID().uuidString
    let domain = from.split(separator: "@").last.map(String.init) ?? "clarissa.invalid"
    let headers = [
      "Date: \(rfc5322Date(date))",
      "From: \(from)",
      "To: \(to.joined(separator: ", "))",
      "Subject: \(encodedWords(message.title))",
      "Message-ID: <\(UUID().uuidString.lowercased())@\(domain)>",
      "MIME-Version: 1.0",
      "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
      "X-Mailer: clarissa",
    ]
    let parts = [
      part("text/plain; charset=utf-8", text(message, listings)),
      part("text/html; charset=utf-8", html(message, listings)),
    ]
    let lines =
      headers + [""] + parts.flatMap { ["--\(boundary)"] + $0 } + ["--\(boundary)--", ""]
    return Array(lines.joined(separator: "\r\n").utf8)
  }

  private static func part(_ type: String, _ content: String) -> [String] {
    ["Content-Type: \(type)", "Content-Transfer-Encoding: base64", ""]
      + base64Lines(Array(content.utf8))
  }

  private static func text(_ message: Message, _ listings: [Listing]) -> String {
    var text = message.body
    let photos = listings.compactMap(\.imageURLs.first)
    if listings.count == 1, let photo = photos.first { text += "\n\nPhoto: \(photo)" }
    return text + "\n"
  }

  /// The HTML alternative: the title (linked for one listing), the body's lines, and each
  /// listing's photo linked to the listing. Every text is escaped.
  static func html(_ message: Message, _ listings: [Listing]) -> String {
    var html = "<!DOCTYPE html>\n<html><body>\n"
    let title = escape(message.title)
    html +=
      message.link.map { "<h2><a href=\"\(escape($0))\">\(title)</a></h2>\n" }
      ?? "<h2>\(title)</h2>\n"
    let body = message.body.split(separator: "\n", omittingEmptySubsequences: false)
      .map { escape(String($0)) }.joined(separator: "<br>\n")
    html += "<p>\(body)</p>\n"
    for listing in listings {
      guard let photo = listing.imageURLs.first else { continue }
      html +=
        "<p><a href=\"\(escape(listing.url))\"><img src=\"\(escape(photo))\" "
        + "alt=\"\(escape(listing.title))\" width=\"320\"></a><br>\n"
        + "<a href=\"\(escape(photo))\">photo: \(escape(listing.title))</a></p>\n"
    }
    return html + "</body></html>\n"
  }

  static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }

  /// RFC 2047 `=?UTF-8?B?...?=` words of at most 75 characters, folded onto continuation lines,
  /// split between characters (never inside one); plain ASCII stays as it is.
  static func encodedWords(_ text: String) -> String {
    let clean = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(
      of: "\n", with: " ")
    guard clean.unicodeScalars.contains(where: { $0.value > 126 || $0.value < 32 }) else {
      return clean
    }
    // 75 - "=?UTF-8?B?" - "?=" leaves 63 base64 characters: 45 bytes of text.
    var words: [String] = []
    var chunk: [UInt8] = []
    for character in clean {
      let bytes = Array(String(character).utf8)
      if chunk.count + bytes.count > 45 {
        words.append(chunk.isEmpty ? "" : "=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
        chunk = []
      }
      chunk += bytes
    }
    if !chunk.isEmpty { words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=") }
    return words.filter { !$0.isEmpty }.joined(separator: "\r\n ")
  }

  private static func base64Lines(_ bytes: [UInt8]) -> [String] {
    let encoded = Data(bytes).base64EncodedString()
    var lines: [String] = []
    var index = encoded.startIndex
    while index < encoded.endIndex {
      let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
      lines.append(String(encoded[index..<end]))
      index = end
    }
    return lines
  }

  static func rfc5322Date(_ date: Date) -> String { rfc5322Format.string(from: date) }

  private static let rfc5322Format = DateFormat.pattern(
    "EEE, dd MMM yyyy HH:mm:ss '+0000'", zone: .gmt)
}
