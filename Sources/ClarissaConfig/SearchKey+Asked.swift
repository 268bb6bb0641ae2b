internal import ClarissaCore

/// The keys that name a search and shape what its site is asked.
extension SearchKey {
  static let asked: [SearchKey] = [
    SearchKey(
      "name", schema: { _ in ConfigSchema.text },
      hover: "unique name, used in reports, the state file and --search NAME",
      doc: Doc("text", "required", "unique; used in reports, the state file and `--search NAME`"),
      ownOnly: "every search names itself", read: .first),
    SearchKey(
      "site", schema: { sites in ["enum": sites.ids] },
      hover: "the site adapter (default craigslist); `clarissa sites` lists them",
      doc: Doc(
        "site id", "`craigslist`, or the site `url` names",
        "the adapter: `craigslist`, `feed`, `kleinanzeigen`, `wg-gesucht`, `willhaben`, "
          + "`immoscout`, `flatfox`, your own from `sites/`, `oodle` (unverified), `backpage` "
          + "(defunct); `clarissa sites list` lists them. Leave it out with `url`: a `site` that "
          + "disagrees with the URL is an error"),
      read: .first),
    SearchKey(
      "url",
      schema: { _ in
        ConfigSchema.expandable(["type": "string", "pattern": "^([Hh][Tt][Tt][Pp][Ss]?://|\\$\\{)"])
      },
      hover:
        "the site's own search page as pasted from the browser (Craigslist, Kleinanzeigen, "
        + "WG-Gesucht, willhaben, ImmoScout24, flatfox): it names the site, the place and the "
        + "site's filters; leave out site, cities, category and query",
      doc: Doc(
        "URL", "none",
        "the site's own search page, pasted from the browser: see "
          + "[Pasting a search URL](#pasting-a-search-url)"),
      ownOnly: "each search pastes its own", read: .first),
    SearchKey(
      "query", schema: { _ in scalarOrNull },
      hover: "words sent to the site; Craigslist understands a | b, -word, \"phrase\", word*",
      doc: Doc(
        "text", "none",
        #"words sent to the site; Craigslist understands `a \| b`, `-word`, `"phrase"`, `word*`"#),
      carriedByURL: true, synonyms: ["q", "keywords", "search"],
      read: .field { reader, field, draft in
        draft.search.query = reader.string(field.node, field.what, optional: true)
      }),
    SearchKey(
      "category", schema: { _ in scalarOrNull },
      hover:
        "the site's category code, e.g. Craigslist sss (all for sale), fua (furniture), apa "
        + "(apartments)",
      doc: Doc(
        "code", "site's default",
        "the site's category, e.g. Craigslist `sss` (all for sale), `fua` (furniture), `apa` "
          + "(apartments)"),
      carriedByURL: true, synonyms: ["cat"],
      read: .field { reader, field, draft in
        draft.search.category = reader.readCategory(field, site: draft.site)
      }),
    SearchKey(
      "cities", schema: { _ in ConfigSchema.cityList },
      hover:
        "the site's city names or group names; Craigslist: area hostnames (sfbay), optionally "
        + "with a subarea (sfbay/eby)",
      doc: Doc(
        "list", "required by Craigslist",
        "the site's city names or group names; Craigslist: area hostnames (`sfbay`), optionally "
          + "with a subarea (`sfbay/eby`)"),
      carriedByURL: true, synonyms: ["city", "area", "areas"],
      read: .always { reader, draft in
        draft.search.cities = reader.readCities(
          draft.scope, site: draft.site, groups: draft.config.cityGroups)
      }),
    SearchKey(
      "search_in", schema: { _ in ConfigSchema.choice(ClarissaCore.SearchScope.self) },
      hover: "where the site searches the query (default title_and_description)",
      doc: Doc(
        "`title` or `title_and_description`", "`title_and_description`",
        "where the site searches the query"),
      carriedByURL: true, synonyms: ["title_only"],
      read: .field { reader, field, draft in
        draft.search.searchIn =
          reader.choice(field.node, field.what, ClarissaCore.SearchScope.self)
          ?? .titleAndDescription
      }),
    SearchKey(
      "price",
      schema: { _ in
        let amount: [String: Any] = ["type": "number", "minimum": 0]
        return [
          "type": ["object", "null"],
          "properties": [
            "min": ConfigSchema.describe(amount, "price.min", "min"),
            "max": ConfigSchema.describe(amount, "price.max", "max"),
          ],
          "additionalProperties": false,
        ]
      },
      hover: "inclusive price bounds {min, max}, plain numbers in the area's currency",
      doc: Doc(
        "`{min, max}`", "none",
        "inclusive bounds, plain numbers in the area's currency; either may be left out. A point "
          + "is a decimal point: on a site in euros (or CHF, DKK, NOK, BRL... where `1.200` is "
          + "written for 1200), `max: 1.200` is 1.2, and `validate` warns at it and says to "
          + "write `1200`"),
      hints: [
        "min_price": "(write 'price: {min: ...}')", "max_price": "(write 'price: {max: ...}')",
        "price_min": "(write 'price: {min: ...}')", "price_max": "(write 'price: {max: ...}')",
      ],
      read: .field { reader, field, draft in
        draft.search.price = reader.readPrice(field, site: draft.site)
      }),
    SearchKey(
      "has_image", schema: { _ in ["type": "boolean"] },
      hover: "only listings with a photo (default false)",
      doc: Doc("boolean", "`false`", "only listings with a photo"), carriedByURL: true,
      read: .field { reader, field, draft in
        draft.search.hasImage = reader.bool(field.node, field.what) ?? false
      }),
    SearchKey(
      "posted_today", schema: { _ in ["type": "boolean"] },
      hover: "only listings posted today (default false)",
      doc: Doc("boolean", "`false`", "only listings posted today"), carriedByURL: true,
      read: .field { reader, field, draft in
        draft.search.postedToday = reader.bool(field.node, field.what) ?? false
      }),
  ]

  /// A scalar taken as text, or nothing (`query`, `category`).
  private static var scalarOrNull: [String: Any] {
    ["type": ["string", "number", "boolean", "null"]]
  }
}
