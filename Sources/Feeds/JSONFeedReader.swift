internal import Foundation
internal import Markup

/// Reads JSON Feed 1.0 and 1.1 (https://jsonfeed.org). An item of the wrong shape is skipped
/// with a problem; the others are kept.
enum JSONFeedReader {
  static func read(
    _ bytes: [UInt8], url: String, text: TextConversion = .eager
  ) throws -> FeedDocument {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    } catch {
      throw FeedError(
        "not valid JSON: \((error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)")"
      )
    }
    guard let feed = object as? [String: Any] else {
      throw FeedError("not a JSON Feed: the top level is not an object")
    }
    guard let version = feed["version"] as? String, version.contains("jsonfeed.org/version/") else {
      throw FeedError("not a JSON Feed: no 'version' naming https://jsonfeed.org/version/1.x")
    }
    guard let rawItems = feed["items"] as? [Any] else {
      throw FeedError("not a JSON Feed: 'items' is missing or not a list")
    }
    let link = feed["home_page_url"] as? String
    let base = URL(string: link ?? url)
    var items: [FeedItem] = []
    var problems: [String] = []
    let converter = HTMLText.Converter()
    for (index, raw) in rawItems.enumerated() {
      guard let object = raw as? [String: Any] else {
        problems.append("item \(index + 1) is not an object; skipped")
        continue
      }
      items.append(item(object, base: base, converter: converter, text: text))
    }
    return FeedDocument(
      format: .jsonFeed, title: feed["title"] as? String ?? "", link: link, items: items,
      problems: problems)
  }

  private static func item(
    _ object: [String: Any], base: URL?, converter: HTMLText.Converter, text: TextConversion
  ) -> FeedItem {
    func string(_ key: String) -> String? {
      if let text = object[key] as? String { return text }
      if let number = object[key] as? NSNumber { return number.stringValue }
      return nil
    }
    var builder = ItemBuilder()
    builder.guid = string("id")
    builder.link = string("url") ?? string("external_url")
    builder.published = string("date_published")
    builder.updated = string("date_modified")
    if let title = string("title") { builder.title = (title, "text") }
    if let html = string("content_html") {
      builder.content = (html, "html")
    } else if let text = string("content_text") {
      builder.content = (text, "text")
    }
    if let summary = string("summary") { builder.summary = (summary, "text") }
    builder.categories = (object["tags"] as? [Any])?.compactMap { $0 as? String } ?? []
    let authors =
      (object["authors"] as? [[String: Any]]) ?? (object["author"] as? [String: Any]).map { [$0] }
      ?? []
    builder.author = authors.first.flatMap { $0["name"] as? String ?? $0["url"] as? String }
    for attachment in object["attachments"] as? [[String: Any]] ?? [] {
      guard let url = attachment["url"] as? String else { continue }
      builder.enclosures.append(
        Enclosure(
          url: url, type: attachment["mime_type"] as? String,
          length: (attachment["size_in_bytes"] as? NSNumber)?.intValue))
    }
    if let image = string("image"), !builder.enclosures.contains(where: { $0.url == image }) {
      builder.enclosures.insert(Enclosure(url: image, type: nil, length: nil), at: 0)
    }
    return builder.build(base: base, html: converter, text: text)
  }
}
