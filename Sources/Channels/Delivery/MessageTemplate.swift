package import ClarissaCore
package import Foundation
internal import Geography

/// A notification's title and body, from the channel's templates (`{title}`, `{price}` ...) or
/// the defaults: one message per listing, or one digest per run.
package struct Message: Sendable, Equatable {
  /// The message title (ntfy title, mail subject, first line elsewhere).
  package var title: String
  /// The message text.
  package var body: String
  /// The listing's link, for "click" actions (one-listing messages only).
  package var link: String?
  /// The same for every attempt to send these listings of this search to this channel, so a
  /// receiver can make the rare repeat after a crash harmless (`Idempotency-Key`).
  package var key: String = ""

  /// The key of a message carrying `listings` of `search` to `channel`.
  static func key(_ listings: [Listing], search: String, channel: String) -> String {
    ContentHash.hex(["clarissa", search, channel] + listings.flatMap { [$0.site, $0.id] })
  }
}

/// Renders messages for a channel.
package enum MessageTemplate {
  /// The messages for `listings` of `search` on `channel`: one each, or one digest.
  package static func messages(
    for listings: [Listing], search: Search, channel: Channel, now: Date = Date()
  ) -> [(message: Message, listings: [Listing])] {
    switch channel.grouping {
    case .each:
      return listings.map { listing in
        let fields = Self.fields(listing, search: search, count: 1, now: now)
        let title = render(channel.titleTemplate ?? defaultTitle(listing), fields)
        let body = render(
          channel.bodyTemplate ?? "{placeAge}\n{factsLine}\n{context}\n{url}\n{alsoLine}\n{diff}",
          fields)
        let key = Message.key([listing], search: search.name, channel: channel.name)
        let link = listing.url.isEmpty ? nil : listing.url
        return (Message(title: title, body: tidy(body), link: link, key: key), [listing])
      }
    case .digest:
      guard let first = listings.first else { return [] }
      // A scheduled digest of several searches: each listing under its own search's name,
      // its facts and distances by that search.
      let parts =
        search.digestParts.map(\.count).reduce(0, +) == listings.count
          && !search.digestParts.isEmpty
        ? search.digestParts : [(search, listings.count)]
      var fields = Self.fields(first, search: parts[0].search, count: listings.count, now: now)
      fields["search"] = search.name
      let title = render(
        channel.titleTemplate
          ?? (parts.count > 1
            ? "{count} new in \(parts.count) searches" : "{count} new for {search}"),
        fields)
      var lines: [String] = []
      var rest = listings[...]
      for part in parts {
        if parts.count > 1 { lines.append("\(part.search.name):") }
        lines += rest.prefix(part.count).map { listing in
          digestLine(listing, search: part.search, count: listings.count, channel, now: now)
        }
        rest = rest.dropFirst(part.count)
      }
      let key = Message.key(listings, search: search.name, channel: channel.name)
      let body = lines.joined(separator: "\n")
      return [(Message(title: title, body: body, link: nil, key: key), listings)]
    }
  }

  /// A listing's lines in a digest: the channel's body template, or its title and price (what
  /// changed), facts, context, link and other posts.
  private static func digestLine(
    _ listing: Listing, search: Search, count: Int, _ channel: Channel, now: Date
  ) -> String {
    var each = Self.fields(listing, search: search, count: count, now: now)
    each["contextLine"] = each["context"]?.replacingOccurrences(of: "\n", with: "\n  ")
    let line =
      (listing.event == nil ? "• {title}{pricePart}" : "• {change}: {title}")
      + (each["factsLine", default: ""].isEmpty ? "" : "\n  {factsLine}")
      + (each["context", default: ""].isEmpty ? "" : "\n  {contextLine}")
      + (listing.url.isEmpty ? "" : "\n  {url}")
      + (listing.alsoPostedAs == nil ? "" : "\n  {alsoLine}")
    return render(channel.bodyTemplate ?? line, each)
  }

  /// The title of a one-listing message: what changed first, for a listing seen before.
  static func defaultTitle(_ listing: Listing) -> String {
    switch listing.event?.kind {
    case .priceDrop?, .priceRise?: return "{change} · {title}"
    case .back?: return "back: " + (listing.price == nil ? "{title}" : "{price} · {title}")
    case .changed?, .gone?, .reposted?: return TextChangeWords.title(listing)
    default: return listing.price == nil ? "{title}" : "{price} · {title}"
    }
  }

  /// The template fields of one listing.
  static func fields(_ listing: Listing, search: Search, count: Int, now: Date) -> [String: String]
  {
    let listing = ListingCheck.shown(listing)
    let price = Money.format(listing) ?? ""
    let place = listing.location ?? listing.area ?? ""
    let age = listing.posted.map { Age.describe(from: $0, to: now) } ?? ""
    let also = (listing.alsoPostedAs ?? []).joined(separator: ", ")
    let facts = ListingFacts.summary(listing, unit: search.facts.shownAreaUnit) ?? ""
    let distances = ListingFacts.distances(listing, from: search.places) ?? ""
    let commute = ListingFacts.travelTimes(listing) ?? ""
    return [
      "facts": facts, "distances": distances, "commute": commute,
      "factsLine": [facts, distances, commute].filter { !$0.isEmpty }.joined(separator: " · "),
      "title": listing.title, "price": price, "url": listing.url, "search": search.name,
      "city": listing.area ?? "", "site": listing.site, "id": listing.id, "count": String(count),
      "description": listing.description, "age": age, "location": place,
      "placeAge": [place, age].filter { !$0.isEmpty }.joined(separator: " · "),
      "posted": listing.posted.map(DateFormat.internet.string(from:)) ?? "",
      "pricePart": price.isEmpty ? "" : " — \(price)",
      "event": listing.event?.kind.rawValue ?? "new",
      "old_price": listing.event?.oldPrice.map { Money.format($0, listing.currency) } ?? "",
      "change": TextChangeWords.change(listing) ?? "",
      "also_posted_as": also,
      "alsoLine": also.isEmpty ? "" : "also posted as \(also)",
      "context": contextLines(listing).joined(separator: "\n"),
      "diff": TextChangeWords.diff(listing),
    ]
  }

  /// What `{context}` says: that the person starred the listing and their note, the warning
  /// signs (``ListingSignal``, `⚠ 41% below the median of 38 similar`), then the deal context
  /// (``ListingAlert``), a line each.
  static func contextLines(_ listing: Listing) -> [String] {
    let signs = listing.signals.map { "⚠ " + SafeText.line($0.text) }
    guard let alert = listing.alert else { return signs }
    var lines = alert.starred ? ["★ starred"] : []
    if let note = alert.note { lines.append("note: " + SafeText.line(note)) }
    return lines + signs + alert.context.map(SafeText.line)
  }

  /// `{name}` replaced by its field; unknown names stay as written (the config rejects them).
  static func render(_ template: String, _ fields: [String: String]) -> String {
    var output = ""
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
      output += rest[..<open]
      guard let close = rest[open...].firstIndex(of: "}") else { break }
      let name = String(rest[rest.index(after: open)..<close])
      output += fields[name] ?? "{\(name)}"
      rest = rest[rest.index(after: close)...]
    }
    return output + rest
  }

  private static func tidy(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(
        separator: "\n")
  }

  /// `text` cut to `limit` UTF-8 bytes on a character boundary, with an ellipsis.
  package static func truncate(_ text: String, toBytes limit: Int) -> String {
    guard text.utf8.count > limit else { return text }
    var result = ""
    var used = 0
    for character in text {
      let size = String(character).utf8.count
      if used + size > limit - 3 { break }
      result.append(character)
      used += size
    }
    return result + "…"
  }
}
