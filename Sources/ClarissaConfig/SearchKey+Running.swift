internal import ClarissaCore

/// The keys that say when a search runs, what it keeps and what it announces where.
extension SearchKey {
  static let running: [SearchKey] = [
    SearchKey(
      "interval", schema: { _ in ConfigSchema.duration(zeroAllowed: false) },
      hover: "how often the search runs (default 30m), e.g. 20m, 1h30m",
      doc: Doc(
        "duration", "`30m`",
        "how often the search runs; shorter than the site's polite minimum gets a warning"),
      synonyms: ["every", "frequency"],
      read: .field { reader, field, draft in
        draft.search.interval =
          reader.readInterval(field, site: draft.site) ?? draft.search.interval
      }),
    SearchKey(
      "filters", schema: { _ in ["type": ["array", "null"], "items": ConfigSchema.filter] },
      hover: "include/exclude filters applied to each listing the site returns",
      doc: Doc("list", "none", "see below"), synonyms: ["filter"],
      read: .always { reader, draft in draft.search.filters = reader.readAllFilters(draft.scope) }),
    SearchKey(
      "notify", schema: { _ in ConfigSchema.textList },
      hover: "channel names (from 'notify') where new listings go",
      doc: Doc(
        "list of channel names", "none",
        "where new listings go (the run's report always shows them)"
      ),
      synonyms: ["channels", "notifications"],
      read: .field { reader, field, draft in
        draft.search.notify = reader.references(field, to: "channel", known: reader.channelNames)
      }),
    SearchKey(
      "blackout", schema: { _ in ConfigSchema.textList },
      hover: "blackout window names (from 'blackout') for this search",
      doc: Doc("list of window names", "none", "quiet hours for this search"),
      synonyms: ["quiet_hours"],
      read: .field { reader, field, draft in
        draft.search.blackout = reader.references(
          field, to: "blackout window", known: reader.blackoutNames)
      }),
    SearchKey(
      "enabled", schema: { _ in ["type": "boolean"] },
      hover: "false: validated but never run (default true)",
      doc: Doc("boolean", "`true`", "a disabled search is validated but never run"),
      synonyms: ["disabled"],
      read: .field { reader, field, draft in
        draft.search.enabled = reader.bool(field.node, field.what) ?? true
      }),
    SearchKey(
      "duplicates", schema: { _ in ConfigSchema.choice(DuplicateMode.self) },
      hover:
        "fold (default): a repost or cross-post of an item the search knows (the same title and "
        + "price, or a photo and the title or price in common) is recorded and linked, not "
        + "announced; notify: every new id is announced",
      doc: Doc(
        "`fold` or `notify`", "`fold`",
        "a repost or cross-post of an item the search knows is recorded and linked (the report "
          + "says `also posted as`, `repost of`), not announced, and so is the same flat found "
          + "on another site (`1 already on another site`); see below"),
      synonyms: ["exclude_reposts", "reposts"],
      read: .field { reader, field, draft in
        draft.search.duplicates =
          reader.choice(field.node, field.what, DuplicateMode.self) ?? draft.search.duplicates
      }),
    SearchKey(
      "repost_window", schema: { _ in ConfigSchema.duration(zeroAllowed: false) },
      hover:
        "how far back a repost is looked for (default 30d): an item last seen longer ago is new",
      doc: Doc("duration", "`30d`", "how far back a repost is looked for"),
      read: .field { reader, field, draft in
        draft.search.repostWindow =
          reader.interval(field.node, field.what) ?? draft.search.repostWindow
      }),
    SearchKey(
      "notify_on",
      schema: { _ in
        let kind: [String: Any] = ["enum": ListingEventKind.announceable.map(\.rawValue)]
        return ["anyOf": [kind, ["type": "array", "items": kind]]]
      },
      hover:
        "what is announced: new (default), price_drop, price_rise, back (a listing gone longer "
        + "than back_after and up again), changed (its title or description, with a word diff); "
        + "a change is announced once, against the price last announced. Starred listings "
        + "(clarissa star ID) are told of every change, gone, back and repost whatever this says",
      doc: Doc(
        "list of `new`, `price_drop`, `price_rise`, `back`, `changed`", "`[new]`",
        "what is announced; changes of listings already seen are announced once per change; "
          + "`changed`: a listing's title or description changed, with a word diff "
          + "([notifications.md](notifications.md#starred-and-hidden-listings); starred listings "
          + "are told of every change whatever this says)"),
      read: .field { reader, field, draft in draft.search.notifyOn = reader.readEvents(field) }),
    SearchKey(
      "price_drop", schema: { _ in threshold },
      hover:
        "how far a price must fall to count: {min_percent: 5, min_amount: 10} (both, the defaults)",
      doc: Doc(
        "`{min_percent, min_amount}`", "`{min_percent: 5, min_amount: 10}`",
        "how far a price must move, both conditions, from the price last announced"),
      read: .field { reader, field, draft in
        draft.search.priceDrop = reader.readThreshold(field) ?? draft.search.priceDrop
      }),
    SearchKey(
      "price_rise", schema: { _ in threshold },
      hover: "how far a price must rise to count, as price_drop", doc: nil,
      read: .field { reader, field, draft in
        draft.search.priceRise = reader.readThreshold(field) ?? draft.search.priceRise
      }),
    SearchKey(
      "back_after", schema: { _ in ConfigSchema.duration(zeroAllowed: false) },
      hover: "how long a listing must have been gone for 'back' (default 7d)",
      doc: Doc(
        "duration", "`7d`",
        "a listing the search's answers left out for longer than this (it ran, answered, and the "
          + "listing was not there, at least this long after it was last seen) and that is up "
          + "again is announced as `back`; time without runs does not count"),
      read: .field { reader, field, draft in
        draft.search.backAfter = reader.interval(field.node, field.what) ?? draft.search.backAfter
      }),
    SearchKey(
      "allow_private_redirects", schema: { _ in ["type": "boolean"] },
      hover:
        "true: a request that starts on a public address may be redirected to a loopback, "
        + "link-local or private one (a feed on your own network; default false: refused)",
      doc: Doc(
        "boolean", "`false`",
        "`true`: a request that starts on a public address may be redirected to a loopback, "
          + "link-local or private one; see "
          + "[Redirects into your network](#redirects-into-your-network)"),
      read: .field { reader, field, draft in
        draft.search.allowPrivateRedirects = reader.bool(field.node, field.what) ?? false
      }),
  ]

  /// `price_drop` and `price_rise`: `{min_percent, min_amount}`.
  private static var threshold: [String: Any] {
    let amount: [String: Any] = ["type": "number", "minimum": 0]
    return [
      "type": "object",
      "properties": [
        "min_percent": ConfigSchema.describe(amount, "threshold.min_percent", "min_percent"),
        "min_amount": ConfigSchema.describe(amount, "threshold.min_amount", "min_amount"),
      ],
      "additionalProperties": false,
    ]
  }
}
