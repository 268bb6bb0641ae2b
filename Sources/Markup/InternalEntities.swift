/// A DOCTYPE's internal entities (`<!DOCTYPE rss [<!ENTITY author "Jane">]>`), expanded before
/// libxml2 sees the document, within a budget; what stays refused: parameter entities, external
/// entities (SYSTEM, PUBLIC), and any document whose expansion would pass the budget (billion
/// laughs, one large entity referenced many times). libxml2 itself never expands an entity.
enum InternalEntities {
  /// The most bytes all references of a document may expand to: 64 KiB, or the document's own
  /// size when larger (a feed that names its publisher in an entity on every item stays far
  /// below; the attacks pass it at once).
  static func budget(for document: Int) -> Int { max(65_536, document) }
  /// The deepest nesting of entities inside entities.
  static let maxDepth = 8

  /// The document with its internal subset's entities expanded and the subset removed; nil when
  /// it declares none. Throws for what is refused, at the declaration's place.
  static func expand(_ bytes: [UInt8]) throws(MarkupError) -> [UInt8]? {
    guard let subset = Subset.find(in: bytes) else { return nil }
    let declarations = try subset.declarations(bytes)
    guard !declarations.isEmpty else { return nil }
    var sizes: [String: Int] = [:]
    for name in declarations.keys { _ = try size(of: name, declarations, &sizes, depth: 0) }
    let body = Array(bytes[subset.end...])
    var total = 0
    var out = Array(bytes[..<subset.start])
    var index = 0
    while index < body.count {
      if body[index] == UInt8(ascii: "&"), let (name, length) = reference(in: body, at: index),
        declarations[name] != nil
      {
        total += sizes[name] ?? 0
        guard total <= budget(for: bytes.count) else {
          throw MarkupError(
            .entityDeclaration,
            "the document's entities expand to more than \(budget(for: bytes.count)) bytes; "
              + "refused (an entity expansion attack, or a feed far larger than any real one)")
        }
        out += try text(of: name, declarations, depth: 0)
        index += length
      } else {
        out.append(body[index])
        index += 1
      }
    }
    return out
  }

  /// The bytes `name` stands for, its own references expanded.
  private static func text(of name: String, _ declarations: [String: [UInt8]], depth: Int)
    throws(MarkupError) -> [UInt8]
  {
    guard depth <= maxDepth, let value = declarations[name] else { return [] }
    var out: [UInt8] = []
    var index = 0
    while index < value.count {
      if value[index] == UInt8(ascii: "&"), let (inner, length) = reference(in: value, at: index),
        declarations[inner] != nil
      {
        out += try text(of: inner, declarations, depth: depth + 1)
        index += length
      } else {
        out.append(value[index])
        index += 1
      }
    }
    return out
  }

  /// How many bytes `name` expands to, counted before anything is built.
  private static func size(
    of name: String, _ declarations: [String: [UInt8]], _ sizes: inout [String: Int], depth: Int
  ) throws(MarkupError) -> Int {
    if let known = sizes[name] { return known }
    guard depth <= maxDepth else {
      throw MarkupError(
        .entityDeclaration, "entity '\(name)' nests entities deeper than \(maxDepth); refused")
    }
    guard let value = declarations[name] else { return 0 }
    var total = 0
    var index = 0
    while index < value.count {
      if value[index] == UInt8(ascii: "&"), let (inner, length) = reference(in: value, at: index),
        declarations[inner] != nil
      {
        total += try size(of: inner, declarations, &sizes, depth: depth + 1)
        index += length
      } else {
        total += 1
        index += 1
      }
      // A budget for one entity too: the billion laughs stop here, before any text is made.
      guard total <= 16 << 20 else {
        throw MarkupError(
          .entityDeclaration,
          "entity '\(name)' expands to more than 16 MiB; refused (an entity expansion attack)")
      }
    }
    sizes[name] = total
    return total
  }

  /// `&name;` at `index`: the name and the reference's length.
  static func reference(in bytes: [UInt8], at index: Int) -> (String, Int)? {
    var end = index + 1
    while end < bytes.count, end - index < 64, bytes[end] != UInt8(ascii: ";") {
      let byte = bytes[end]
      let isName =
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2D || byte == 0x2E
        || byte >= 0x80
      guard isName else { return nil }
      end += 1
    }
    guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1 else { return nil }
    return (String(decoding: bytes[(index + 1)..<end], as: UTF8.self), end - index + 1)
  }
}
