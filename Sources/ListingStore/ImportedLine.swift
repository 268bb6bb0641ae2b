internal import ClarissaCore
internal import Foundation

/// One line of an export being imported (or an object inside it), read member by member; a
/// wrong member is an error that names the file, the line and the member.
struct ImportedLine {
  let object: [String: Any]
  let file: String
  let line: Int

  /// The line's `"type"`.
  var type: String { object["type"] as? String ?? "" }

  init(_ data: Data, file: String, line: Int) throws {
    self.file = file
    self.line = line
    let parsed = try? JSONSerialization.jsonObject(with: data)
    guard let object = parsed as? [String: Any], object["type"] is String else {
      self.object = [:]
      throw problem("is not a JSON object with a \"type\" (as 'clarissa state export' writes)")
    }
    self.object = object
  }

  private init(object: [String: Any], file: String, line: Int) {
    self.object = object
    self.file = file
    self.line = line
  }

  /// An error about this line.
  func problem(_ text: String) -> StoreProblem {
    StoreProblem(message: "'\(file)' line \(line) \(text); nothing was imported")
  }

  func required(_ key: String) throws -> String {
    guard let text = object[key] as? String else { throw missing(key, "a text") }
    return text
  }

  func int(_ key: String) throws -> Int? {
    guard let value = object[key], !(value is NSNull) else { return nil }
    guard let number = value as? Int else { throw missing(key, "a whole number") }
    return number
  }

  func number(_ key: String) throws -> Double? {
    guard let value = object[key], !(value is NSNull) else { return nil }
    guard let number = value as? Double else { throw missing(key, "a number") }
    return number
  }

  func date(_ key: String) throws -> Date? {
    guard let value = object[key], !(value is NSNull) else { return nil }
    guard let text = value as? String, let date = StoreLine.date(text) else {
      throw missing(key, "an ISO 8601 time")
    }
    return date
  }

  func requiredDate(_ key: String) throws -> Date {
    guard let date = try date(key) else { throw missing(key, "an ISO 8601 time") }
    return date
  }

  func strings(_ key: String) throws -> [String] {
    guard let value = object[key], !(value is NSNull) else { return [] }
    guard let list = value as? [String] else { throw missing(key, "a list of texts") }
    return list
  }

  /// A member that maps names to texts (a listing's other facts).
  func textMap(_ key: String) throws -> [String: String] {
    guard let value = object[key], !(value is NSNull) else { return [:] }
    guard let map = value as? [String: String] else {
      throw missing(key, "an object of texts by name")
    }
    return map
  }

  /// The objects of a list member (prices, sightings).
  func objects(_ key: String) throws -> [ImportedLine] {
    guard let value = object[key], !(value is NSNull) else { return [] }
    guard let list = value as? [[String: Any]] else { throw missing(key, "a list of objects") }
    return list.map { ImportedLine(object: $0, file: file, line: line) }
  }

  /// A member for a column of a simple table.
  func value(_ column: StoreLine.Column) throws -> SQLiteDatabase.Value {
    let value: SQLiteDatabase.Value
    switch column.kind {
    case .text:
      if object[column.key] != nil && !(object[column.key] is NSNull) {
        return .text(try required(column.key))
      }
      value = .null
    case .time: value = .time(try date(column.key))
    case .int: value = .intOrNull(try int(column.key))
    case .number: value = .doubleOrNull(try number(column.key))
    case .json:
      let list = try strings(column.key)
      value = object[column.key] == nil ? .null : .text(StoreJSON.text(list))
    }
    if column.required, case .null = value {
      let what: [StoreLine.Column.Kind: String] = [
        .text: "a text", .time: "an ISO 8601 time", .int: "a whole number", .number: "a number",
        .json: "a list of texts",
      ]
      throw missing(column.key, what[column.kind] ?? "a value")
    }
    return value
  }

  /// The listing a `listing` line describes (``ListingColumns/imported(_:)``).
  func listing() throws -> Listing { try ListingColumns.imported(self) }

  private func missing(_ key: String, _ what: String) -> StoreProblem {
    problem("needs '\(key)' as \(what)")
  }
}
