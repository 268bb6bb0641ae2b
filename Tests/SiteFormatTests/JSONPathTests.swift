import Foundation
import Testing

@testable import SiteFormat
@testable import Sites

/// JSONPath (RFC 9535) on the examples of the RFC and on the shapes of the real answers the
/// declared sites read; every mistake at its offset.
@Suite struct JSONPathTests {
  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
  }

  /// The selected nodes as compact JSON, one string each.
  static func select(_ path: String, _ document: Any, current: Any? = nil) throws -> [String] {
    try JSONPath(path).select(document, current: current).map { node in
      if let text = node as? String { return "\"\(text)\"" }
      if node is NSNull { return "null" }
      let data = try JSONSerialization.data(
        withJSONObject: node, options: [.fragmentsAllowed, .sortedKeys])
      return String(decoding: data, as: UTF8.self)
    }
  }

  /// RFC 9535 section 1.5's bookstore.
  static let store = """
    { "store": {
        "book": [
          { "category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95 },
          { "category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99 },
          { "category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99 },
          { "category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings", "isbn": "0-395-19395-8", "price": 22.99 }
        ],
        "bicycle": { "color": "red", "price": 399 }
      } }
    """

  @Test(arguments: [
    (
      "$.store.book[*].author",
      ["\"Nigel Rees\"", "\"Evelyn Waugh\"", "\"Herman Melville\"", "\"J. R. R. Tolkien\""]
    ),
    (
      "$..author",
      ["\"Nigel Rees\"", "\"Evelyn Waugh\"", "\"Herman Melville\"", "\"J. R. R. Tolkien\""]
    ),
    ("$.store..price", ["399", "8.95", "12.99", "8.99", "22.99"]),
    ("$..book[2].title", ["\"Moby Dick\""]),
    ("$..book[-1].title", ["\"The Lord of the Rings\""]),
    ("$..book[0,1].title", ["\"Sayings of the Century\"", "\"Sword of Honour\""]),
    ("$..book[:2].title", ["\"Sayings of the Century\"", "\"Sword of Honour\""]),
    ("$..book[?@.isbn].title", ["\"Moby Dick\"", "\"The Lord of the Rings\""]),
    ("$..book[?@.price<10].title", ["\"Sayings of the Century\"", "\"Moby Dick\""]),
    (
      "$.store.book[?@.price > 10 && @.category == 'fiction'].author",
      ["\"Evelyn Waugh\"", "\"J. R. R. Tolkien\""]
    ),
    ("$.store.book[?!@.isbn].price", ["8.95", "12.99"]),
    ("$.store.book[?match(@.author, 'J.*')].title", ["\"The Lord of the Rings\""]),
    ("$.store.book[?search(@.title, 'of')].price", ["8.95", "12.99", "22.99"]),
    ("$.store.book[?length(@.title) == 9].author", ["\"Herman Melville\""]),
    ("$.store.book[::-2].price", ["22.99", "12.99"]),
    ("$.store['bicycle'][\"color\"]", ["\"red\""]),
    ("$.store.bicycle.nope", []),
  ])
  func theRFCsBookstore(path: String, expected: [String]) throws {
    #expect(try Self.select(path, try Self.json(Self.store)) == expected, "\(path)")
  }

  /// willhaben's attribute lists: `{name, values}` read by name, relative to each advert.
  @Test func attributeListsByName() throws {
    let document = try Self.json(
      """
      {"adverts": [{"id": "1", "attributes": {"attribute": [
        {"name": "PRICE", "values": ["1038.82"]}, {"name": "LOCATION", "values": ["Wien, 10. Bezirk"]}]}},
       {"id": "2", "attributes": {"attribute": [{"name": "LOCATION", "values": ["Graz"]}]}}]}
      """)
    let adverts = try JSONPath("$.adverts[*]").select(document)
    #expect(adverts.count == 2)
    let price = "@.attributes.attribute[?@.name == 'PRICE'].values[0]"
    #expect(try Self.select(price, document, current: adverts[0]) == ["\"1038.82\""])
    #expect(try Self.select(price, document, current: adverts[1]) == [])
  }

  @Test func comparisonsFollowTheRFC() throws {
    let document = try Self.json(
      #"[{"a": 1, "b": true}, {"a": "1"}, {"a": null}, {"b": false}, {"a": [1, 2]}]"#)
    #expect(try Self.select("$[?@.a == 1]", document) == [#"{"a":1,"b":true}"#])
    #expect(try Self.select("$[?@.a == null]", document) == [#"{"a":null}"#])
    #expect(try Self.select("$[?@.b == true]", document) == [#"{"a":1,"b":true}"#])
    // A missing member is Nothing: equal to nothing but another Nothing, never ordered.
    #expect(try Self.select("$[?@.c == @.d]", document).count == 5)
    #expect(try Self.select("$[?@.a < 2]", document) == [#"{"a":1,"b":true}"#])
    #expect(try Self.select("$[?@.a != 1]", document).count == 4)
  }

  @Test(arguments: [
    ("store.book", 0, "a path starts with '$'"),
    ("$.store[", 8, "before the end"),
    ("$.store.book[?@.price <]", 23, "expected a path"),
    ("$[?lenght(@.a) > 1]", 3, "did you mean 'length'?"),
    ("$[?@.* == 1]", 3, "only a path to one value"),
    ("$[?match(@.a, @.b)]", 14, "pattern must be a string literal"),
    ("$['a", 2, "never closed"),
    ("$[01]", 2, "leading zeros"),
    ("$.a b", 4, "unexpected 'b'"),
    ("$[?'x']", 3, "compare it"),
  ])
  func mistakesNameTheirPlace(path: String, offset: Int, words: String) {
    do {
      _ = try JSONPath(path)
      Issue.record("'\(path)' compiled")
    } catch {
      #expect(error.offset == offset, "\(path): \(error.message)")
      #expect(error.message.contains(words), "\(path): \(error.message)")
    }
  }

  @Test func singularPathsAreKnown() throws {
    #expect(try JSONPath("$.a.b[0]").isSingular)
    #expect(try JSONPath("@['x']").isSingular)
    #expect(try !JSONPath("$.a[*]").isSingular)
    #expect(try !JSONPath("$..a").isSingular)
  }
}
