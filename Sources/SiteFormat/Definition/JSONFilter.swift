package import Foundation

/// A filter's logical expression (RFC 9535 2.3.5).
package indirect enum JSONFilter {
  case or([JSONFilter])
  case and([JSONFilter])
  case not(JSONFilter)
  /// A query that selects at least one node.
  case exists(JSONQuery)
  case compare(JSONOperand, JSONComparison, JSONOperand)
  /// `match` (the whole text) or `search` (anywhere in it).
  case regex(JSONOperand, NSRegularExpression, whole: Bool)

  package func holds(current: Any, root: Any) -> Bool {
    switch self {
    case .or(let parts): return parts.contains { $0.holds(current: current, root: root) }
    case .and(let parts): return parts.allSatisfy { $0.holds(current: current, root: root) }
    case .not(let inner): return !inner.holds(current: current, root: root)
    case .exists(let query): return !query.select(root: root, current: current).isEmpty
    case .compare(let left, let operation, let right):
      return operation.holds(
        left.value(current: current, root: root), right.value(current: current, root: root))
    case .regex(let operand, let pattern, let whole):
      guard case .value(let value)? = operand.value(current: current, root: root),
        let text = value as? String
      else { return false }
      let range = NSRange(text.startIndex..., in: text)
      guard
        let match = pattern.firstMatch(in: text, options: whole ? [.anchored] : [], range: range)
      else { return false }
      return !whole || match.range == range
    }
  }
}

/// One side of a comparison: a literal, a singular query, or `length(...)`.
package indirect enum JSONOperand {
  case literal(Any)
  case query(JSONQuery)
  case length(JSONOperand)

  /// What a value is for a comparison.
  package enum Result {
    case value(Any)
    /// An empty node list (RFC 9535's "Nothing").
    case nothing
  }

  package func value(current: Any, root: Any) -> Result? {
    switch self {
    case .literal(let value): return .value(value)
    case .query(let query):
      return query.select(root: root, current: current).first.map { .value($0) } ?? .nothing
    case .length(let inner):
      guard case .value(let value)? = inner.value(current: current, root: root) else {
        return .nothing
      }
      if let text = value as? String { return .value(NSNumber(value: text.unicodeScalars.count)) }
      if let array = value as? [Any] { return .value(NSNumber(value: array.count)) }
      if let object = value as? [String: Any] { return .value(NSNumber(value: object.count)) }
      return .nothing
    }
  }
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=` with RFC 9535's semantics: only numbers and strings are
/// ordered; Nothing equals only Nothing; booleans and null compare by equality.
package enum JSONComparison: String, CaseIterable {
  case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">="
  case less = "<", greater = ">"

  package func holds(_ left: JSONOperand.Result?, _ right: JSONOperand.Result?) -> Bool {
    switch self {
    case .equal: return Self.equal(left, right)
    case .notEqual: return !Self.equal(left, right)
    case .less: return Self.less(left, right)
    case .lessOrEqual: return Self.less(left, right) || Self.equal(left, right)
    case .greater: return Self.less(right, left)
    case .greaterOrEqual: return Self.less(right, left) || Self.equal(left, right)
    }
  }

  package static func equal(_ left: JSONOperand.Result?, _ right: JSONOperand.Result?) -> Bool {
    switch (left, right) {
    case (.nothing?, .nothing?): return true
    case (.value(let a)?, .value(let b)?): return same(a, b)
    default: return false
    }
  }

  package static func less(_ left: JSONOperand.Result?, _ right: JSONOperand.Result?) -> Bool {
    guard case .value(let a)? = left, case .value(let b)? = right else { return false }
    if let x = number(a), let y = number(b) { return x < y }
    if let x = a as? String, let y = b as? String {
      return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
    }
    return false
  }

  /// JSON equality: numbers by value, strings, booleans, null, and arrays and objects deeply.
  package static func same(_ a: Any, _ b: Any) -> Bool {
    if JSONKind.isNull(a) || JSONKind.isNull(b) { return JSONKind.isNull(a) && JSONKind.isNull(b) }
    if let x = JSONKind.boolean(a), let y = JSONKind.boolean(b) { return x == y }
    if JSONKind.boolean(a) != nil || JSONKind.boolean(b) != nil { return false }
    if let x = number(a), let y = number(b) { return x == y }
    if let x = a as? String, let y = b as? String { return x == y }
    if let x = a as? [Any], let y = b as? [Any] {
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    }
    if let x = a as? [String: Any], let y = b as? [String: Any] {
      return x.count == y.count
        && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
    }
    return false
  }

  package static func number(_ value: Any) -> Double? {
    guard !JSONKind.isContainer(value), JSONKind.boolean(value) == nil else { return nil }
    if let number = value as? NSNumber { return number.doubleValue }
    if let number = value as? Double { return number }
    if let number = value as? Int { return Double(number) }
    return nil
  }
}

/// What a JSON value is, asked without the casts that bridge (on Linux `array is NSNull` copies
/// the whole array into an NSArray to answer).
package enum JSONKind {
  package static func isContainer(_ value: Any) -> Bool {
    value is [Any] || value is [String: Any]
  }

  package static func isNull(_ value: Any) -> Bool {
    !isContainer(value) && type(of: value) == NSNull.self
  }

  /// A JSON boolean (JSONSerialization makes them NSNumbers of type `c`); nil for others.
  package static func boolean(_ value: Any) -> Bool? {
    guard !isContainer(value), let number = value as? NSNumber,
      String(cString: number.objCType) == "c"
    else { return nil }
    return number.boolValue
  }
}
