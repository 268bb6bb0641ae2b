internal import ClarissaCore
internal import ListingStore
internal import WebServer

/// The filters of `/listings` and `/map`: their form, and the query again as a link's
/// parameters or as a form's hidden fields.
extension WebApp {
  /// The filter form of `/listings` or `/map` (`action`); its values are the query's.
  func filterForm(_ query: ListingQuery, action: String) -> HTML {
    let searches = config.searches.map(\.name)
    let sites = Array(Set(config.searches.map(\.site))).sorted()
    let marked: HTML =
      Self.markedParameter(query).map { (name: String, _: String) -> HTML in
        "<input type=\"hidden\" name=\"\(name)\" value=\"1\">"
      } ?? .empty
    return """
      <form method="get" action="\(action)" class="filters" id="filters">
      <label>Search <select name="search">\
      \(Self.options(searches, query.searches, all: "all searches"))</select></label>
      <label>Site <select name="site">\(Self.options(sites, query.sites, all: "all sites"))\
      </select></label>
      <label>Lowest price <input type="number" name="min" placeholder="min" step="any" \
      value="\(Self.bound(query.minPrice))"></label>
      <label>Highest price <input type="number" name="max" placeholder="max" step="any" \
      value="\(Self.bound(query.maxPrice))"></label>
      <label>Text <input type="search" name="q" value="\(query.words.joined(separator: " "))" \
      placeholder="words in title or description"></label>
      <label class="check"><input type="checkbox" name="unviewed" value="1"\
      \(query.unviewed ? " checked" : "")> unviewed only</label>
      \(marked)
      <button>Filter</button>
      </form>
      """
  }

  /// A `<select>`'s options: `all` (no value), then `values`, those in `chosen` selected.
  private static func options(_ values: [String], _ chosen: [String], all: String) -> HTML {
    let each = values.map { value -> HTML in
      "<option value=\"\(value)\"\(chosen.contains(value) ? " selected" : "")>\(value)</option>"
    }
    return "<option value=\"\">\(all)</option>\(each)"
  }

  /// A price bound as the form shows it (nothing when there is none).
  private static func bound(_ value: Double?) -> String {
    value.map(CheckedNumber.text) ?? ""
  }

  /// The query as parameters (ending with `&` when not empty), for the pager's links.
  static func filterParameters(_ query: ListingQuery) -> String {
    var parts: [String] = []
    parts += query.searches.map { "search=\(queryValue($0))" }
    parts += query.sites.map { "site=\(queryValue($0))" }
    if let min = query.minPrice { parts.append("min=\(min)") }
    if let max = query.maxPrice { parts.append("max=\(max)") }
    if !query.words.isEmpty { parts.append("q=\(queryValue(query.words.joined(separator: " ")))") }
    if query.unviewed { parts.append("unviewed=1") }
    if let marked = markedParameter(query) { parts.append("\(marked.name)=\(marked.value)") }
    return parts.map { $0 + "&" }.joined()
  }

  /// The query as hidden fields of a form.
  static func hiddenFields(_ query: ListingQuery) -> HTML {
    var fields: [(String, String)] = []
    fields += query.searches.map { ("search", $0) }
    fields += query.sites.map { ("site", $0) }
    if let min = query.minPrice { fields.append(("min", String(min))) }
    if let max = query.maxPrice { fields.append(("max", String(max))) }
    if !query.words.isEmpty { fields.append(("q", query.words.joined(separator: " "))) }
    if query.unviewed { fields.append(("unviewed", "1")) }
    if let marked = markedParameter(query) { fields.append(marked) }
    return fields.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" as HTML }
      .joined()
  }
}
