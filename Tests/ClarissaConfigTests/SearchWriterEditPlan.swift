import ClarissaConfig
import FixtureSupport
import YAML

/// The round trip's random changes: each one a change the form can make, with the texts YAML
/// makes hard (a `#`, a `:`, a leading `*&!|>'"%@`, trailing spaces, words YAML would read as
/// booleans or numbers, a line break).
enum EditPlan {
  static let texts = [
    "standing desk", "desk # walnut", "a: b", "*star", "&amp", "!bang", "|pipe", ">gt",
    "'single'", "\"double\"", "%pct", "@at", "trailing  ", "yes", "123", "null", "ümlaut café",
    "-dash", "[brackets]", "{braces}", "a, b", "two\nlines", "back\\slash", "?what", "`tick`",
  ]
  static let patterns = [
    #"\bipad\b"#, "^a: b #c$", "'quoted'", #"(?i)\d+ €"#, "[#:]+", "x{2,}", " spaced ",
    #"\"(new|neu)\""#,
  ]
  static let removable: Set<String> = [
    "filters", "price", "interval", "enabled", "has_image", "posted_today", "search_in",
    "notify", "missing", "near_mode", "query",
  ]

  static func kind(_ change: SearchChange) -> String {
    switch change {
    case .add: return "add"
    case .delete: return "delete"
    case .edit(_, let set, let remove):
      if set == [EditPair("enabled", .plain("false"))], remove.isEmpty { return "pause" }
      if set.isEmpty, remove == ["enabled"] { return "resume" }
      if set.contains(where: { $0.key == "name" }) { return "rename" }
      return set.isEmpty ? "remove" : "set"
    }
  }

  static func change(
    for layout: Layout, text: String, random: inout SeededRandom
  ) -> SearchChange {
    let searches = SearchValues.all(in: text) ?? []
    let chosen = Int.random(in: 0..<searches.count, using: &random)
    let search = searches[chosen]
    let own = layout.items.indices.contains(chosen) ? layout.ownKeys(of: layout.items[chosen]) : []
    let roll = Int.random(in: 0..<10, using: &random)
    switch roll {
    case 4:
      let keys = own.filter { removable.contains($0) }
      if let key = keys.randomElement(using: &random) {
        return .edit(name: search.name, set: [], remove: [key])
      }
    case 5, 6:
      let paused = search.value("enabled").map { $0.means(.plain("false")) } ?? false
      return SearchChange.pause(search.name, paused: !paused)
    case 7:
      let name = uniqueName(search.name + " copy", among: searches)
      var pairs = search.pairs.filter { $0.key != "name" && $0.key != "enabled" }
      pairs.insert(EditPair("name", .text(name)), at: 0)
      return .add(pairs)
    case 8 where searches.count > 1 && !text.contains("&"):
      return .delete(name: search.name)
    case 9:
      let name = uniqueName(
        search.name + pick([" #2", ": b", " (2)", "-new"], &random),
        among: searches)
      return .edit(name: search.name, set: [EditPair("name", .text(name))], remove: [])
    default:
      break
    }
    return .edit(name: search.name, set: settings(for: search, random: &random), remove: [])
  }

  /// One or two keys given new values.
  static func settings(for search: SearchValues, random: inout SeededRandom) -> [EditPair] {
    let pasted = search.value("url") != nil
    var choices = ["filters", "interval", "price"]
    if !pasted { choices += ["query", "has_image"] }
    let count = Int.random(in: 1...2, using: &random)
    var keys: [String] = []
    while keys.count < count {
      let key = pick(choices, &random)
      if !keys.contains(key) { keys.append(key) }
    }
    return keys.map { key in
      switch key {
      case "filters": return EditPair(key, filters(&random))
      case "interval":
        return EditPair(key, .plain(pick(["15m", "1h", "2h30m", "45m"], &random)))
      case "price":
        let low = Int.random(in: 0...500, using: &random)
        var bounds = [
          EditPair("max", .plain(String(low + Int.random(in: 1...900, using: &random))))
        ]
        if Bool.random(using: &random) {
          bounds.insert(EditPair("min", .plain(String(low))), at: 0)
        }
        return EditPair(key, .map(bounds))
      case "has_image": return EditPair(key, .plain(Bool.random(using: &random) ? "true" : "false"))
      default: return EditPair(key, .text(pick(texts, &random)))
      }
    }
  }

  static func filters(_ random: inout SeededRandom) -> EditValue {
    .list(
      (0..<Int.random(in: 1...3, using: &random)).map { _ in
        let effect = Bool.random(using: &random) ? "include" : "exclude"
        var pairs: [EditPair]
        if Bool.random(using: &random) {
          pairs = [
            EditPair(effect, .text(pick(patterns, &random))),
            EditPair("regex", .plain("true")),
          ]
        } else if Bool.random(using: &random) {
          pairs = [
            EditPair(
              effect,
              .list([
                .text(pick(texts, &random)),
                .text(pick(texts, &random)),
              ]))
          ]
        } else {
          pairs = [EditPair(effect, .text(pick(texts, &random)))]
        }
        if Bool.random(using: &random) {
          pairs.append(
            EditPair("on", .plain(pick(["title", "description", "both"], &random))))
        }
        return .map(pairs)
      })
  }

  /// One of `items`, chosen by `random`.
  static func pick<T>(_ items: [T], _ random: inout SeededRandom) -> T {
    items[Int.random(in: 0..<items.count, using: &random)]
  }

  static func uniqueName(_ base: String, among searches: [SearchValues]) -> String {
    var name = base
    var number = 2
    while searches.contains(where: { $0.name == name }) {
      name = "\(base) \(number)"
      number += 1
    }
    return name
  }
}
