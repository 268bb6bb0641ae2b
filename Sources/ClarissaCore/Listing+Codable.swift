internal import Foundation

/// A listing's JSON (`inspect --format json`, the run report, `listings --json`, the API): its
/// key, its facts as ``ListingField/all`` declares them (each under its `json` member; a fact of
/// several columns as an object of them), the description's pending HTML, an event and the ids
/// folded into it, its warning signs (`signals`, each `{kind, text}`) and its travel times
/// (`commute`, each `{place, by, minutes}`) when there are. Members without a value are left out.
extension Listing: Codable {
  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(id, forKey: Key("id"))
    try container.encode(site, forKey: Key("site"))
    try container.encodeIfPresent(descriptionHTML, forKey: Key("descriptionHTML"))
    try container.encodeIfPresent(event, forKey: Key("event"))
    try container.encodeIfPresent(alsoPostedAs, forKey: Key("alsoPostedAs"))
    try container.encodeIfPresent(alert, forKey: Key("alert"))
    if !signals.isEmpty { try container.encode(signals, forKey: Key("signals")) }
    if !commute.isEmpty { try container.encode(commute, forKey: Key("commute")) }
    for field in ListingField.all {
      let values = field.values(self)
      guard field.columns.count == 1 else {
        if values.allSatisfy(\.isAbsent) { continue }
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key(field.json))
        for (column, value) in zip(field.columns, values) {
          try Self.encode(value, column.kind, Key(column.name), in: &nested)
        }
        continue
      }
      try Self.encode(values[0], field.columns[0].kind, Key(field.json), in: &container)
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    self.init(
      id: try container.decode(String.self, forKey: Key("id")),
      site: try container.decode(String.self, forKey: Key("site")), url: "", title: "")
    descriptionHTML = try container.decodeIfPresent(String.self, forKey: Key("descriptionHTML"))
    event = try container.decodeIfPresent(ListingEvent.self, forKey: Key("event"))
    alsoPostedAs = try container.decodeIfPresent([String].self, forKey: Key("alsoPostedAs"))
    alert = try container.decodeIfPresent(ListingAlert.self, forKey: Key("alert"))
    signals = try container.decodeIfPresent([ListingSignal].self, forKey: Key("signals")) ?? []
    commute = try container.decodeIfPresent([CommuteTime].self, forKey: Key("commute")) ?? []
    for field in ListingField.all {
      let key = Key(field.json)
      guard field.columns.count == 1 else {
        guard container.contains(key) else { continue }
        let nested = try container.nestedContainer(keyedBy: Key.self, forKey: key)
        let values = try field.columns.map {
          try Self.decode($0.kind, Key($0.name), from: nested)
        }
        field.set(&self, values)
        continue
      }
      field.set(&self, [try Self.decode(field.columns[0].kind, key, from: container)])
    }
  }

  private static func encode(
    _ value: ListingField.Value, _ kind: ListingField.Kind, _ key: Key,
    in container: inout KeyedEncodingContainer<Key>
  ) throws {
    switch (kind, value) {
    case (.text, .text(let text)), (.textOrEmpty, .text(let text)):
      try container.encode(text ?? "", forKey: key)
    case (_, .text(let text)): try container.encodeIfPresent(text, forKey: key)
    case (_, .number(let number)): try container.encodeIfPresent(number, forKey: key)
    case (_, .time(let date)): try container.encodeIfPresent(date, forKey: key)
    case (_, .texts(let texts)): try container.encode(texts, forKey: key)
    case (_, .textMap(let map)): if !map.isEmpty { try container.encode(map, forKey: key) }
    }
  }

  private static func decode(
    _ kind: ListingField.Kind, _ key: Key, from container: KeyedDecodingContainer<Key>
  ) throws -> ListingField.Value {
    switch kind {
    case .text: .text(try container.decode(String.self, forKey: key))
    case .textOrEmpty: .text(try container.decodeIfPresent(String.self, forKey: key) ?? "")
    case .optionalText: .text(try container.decodeIfPresent(String.self, forKey: key))
    case .number: .number(try container.decodeIfPresent(Double.self, forKey: key))
    case .time: .time(try container.decodeIfPresent(Date.self, forKey: key))
    case .texts: .texts(try container.decodeIfPresent([String].self, forKey: key) ?? [])
    case .textMap:
      .textMap(try container.decodeIfPresent([String: String].self, forKey: key) ?? [:])
    }
  }
}
