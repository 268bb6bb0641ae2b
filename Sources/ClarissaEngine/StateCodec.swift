import ClarissaCore
import Foundation

/// The state file's JSON, written and read by hand where it is large. Seen listings (a million
/// of them for a heavy user) take one line each, `"<id>" : ["<first seen>", "<last seen>",
/// [<delivered to>], [<pending>]]`, sorted by id: readable, diff-friendly, and fast to scan.
/// The small sections go through Codable. Version 1 files (seen entries as objects) still load.
enum StateCodec {
  // MARK: - Writing

  /// The whole text in memory (tests, small states).
  static func encode(_ state: State) throws -> [UInt8] {
    var text: [UInt8] = []
    try encode(state) { text += $0 }
    return text
  }

  /// Writes the text in pieces of about a megabyte to `write`: a million seen ids never sit in
  /// memory as one 83 MB text beside the state they came from.
  static func encode(_ state: State, to write: ([UInt8]) throws -> Void) throws {
    var out = JSONOut()
    out.raw("{\n")
    try out.member("cooldowns", codable: state.cooldowns, last: false)
    try out.member("held", codable: state.held, last: false)
    try out.member("recent", codable: state.recent, last: false)
    out.raw("  \"searches\" : {")
    let names = state.searches.keys.sorted()
    for (index, name) in names.enumerated() {
      guard let search = state.searches[name] else { continue }
      out.raw(index == 0 ? "\n    " : ",\n    ")
      out.string(name)
      out.raw(" : {\n      \"lastRun\" : ")
      if let lastRun = search.lastRun { out.date(lastRun) } else { out.raw("null") }
      if let lastAttempt = search.lastAttempt {
        out.raw(",\n      \"lastAttempt\" : ")
        out.date(lastAttempt)
      }
      if let sources = search.sources {
        out.raw(",\n      \"sources\" : ")
        out.strings(sources)
      }
      out.raw(",\n      \"seen\" : {")
      let (entries, order) = sortedEntries(search.seen)
      for (position, index) in order.enumerated() {
        if out.bytes.count >= JSONOut.piece {
          try write(out.bytes)
          out.bytes.removeAll(keepingCapacity: true)
        }
        let (id, seen) = entries[Int(index)]
        out.raw(position == 0 ? "\n        " : ",\n        ")
        out.string(id)
        out.raw(" : [")
        out.date(seen.firstSeen)
        out.raw(", ")
        out.date(seen.lastSeen)
        out.raw(", ")
        out.strings(seen.deliveredTo)
        out.raw(", ")
        out.strings(seen.pending)
        out.raw("]")
      }
      out.raw(search.seen.isEmpty ? "}\n    }" : "\n      }\n    }")
    }
    out.raw(names.isEmpty ? "},\n" : "\n  },\n")
    try out.member("undelivered", codable: state.undelivered, last: false)
    try out.member("validators", codable: state.validators, last: false)
    out.raw("  \"version\" : \(State.currentVersion)\n}\n")
    try write(out.bytes)
  }

  /// Seen entries, read from the table in its own order (one sequential pass), and the order
  /// to write them in: by id, numerically when every id is a number (Craigslist's posting ids,
  /// sorted by a radix sort), else by the ids' bytes.
  static func sortedEntries(
    _ seen: [String: SeenListing]
  ) -> (entries: [(String, SeenListing)], order: [Int]) {
    let entries = seen.map { ($0.key, $0.value) }
    var keys: [UInt64] = []
    keys.reserveCapacity(entries.count)
    for (id, _) in entries {
      guard let number = UInt64(id), id.utf8.first != UInt8(ascii: "0") || id == "0" else {
        let order = entries.indices.sorted {
          entries[$0].0.utf8.lexicographicallyPrecedes(entries[$1].0.utf8)
        }
        return (entries, order)
      }
      keys.append(number)
    }
    return (entries, radixOrder(keys))
  }

  /// The positions of `keys` in ascending order of key (stable), by a byte-wise LSD radix sort
  /// that skips the bytes every key shares: a million ids in a few passes.
  static func radixOrder(_ keys: [UInt64]) -> [Int] {
    var order = Array(keys.indices)
    var spare = order
    for shift in stride(from: 0, to: 64, by: 8) {
      var counts = [Int](repeating: 0, count: 257)
      for key in keys { counts[Int((key >> UInt64(shift)) & 0xFF) + 1] += 1 }
      if counts.contains(keys.count) { continue }  // every key has this byte: nothing moves
      for bucket in 1..<257 { counts[bucket] += counts[bucket - 1] }
      for index in order {
        let bucket = Int((keys[index] >> UInt64(shift)) & 0xFF)
        spare[counts[bucket]] = index
        counts[bucket] += 1
      }
      swap(&order, &spare)
    }
    return order
  }

  /// A JSON text being written, with a cache for the dates a run repeats thousands of times.
  struct JSONOut {
    /// How much text is gathered before it is handed on.
    static let piece = 1 << 20
    var bytes: [UInt8] = []
    private var dayPrefixes: [(days: Int, prefix: [UInt8])] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func string(_ text: String) {
      bytes.append(UInt8(ascii: "\""))
      // Ids and channel names need no escaping: copy them as they are.
      if !text.utf8.contains(where: {
        $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
      }) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\""))
        return
      }
      for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
        case 0..<0x20: bytes.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
        default: bytes.append(byte)
        }
      }
      bytes.append(UInt8(ascii: "\""))
    }

    mutating func strings(_ list: [String]) {
      if list.isEmpty {
        bytes.append(UInt8(ascii: "["))
        bytes.append(UInt8(ascii: "]"))
        return
      }
      bytes.append(UInt8(ascii: "["))
      for (index, item) in list.enumerated() {
        if index > 0 { raw(", ") }
        string(item)
      }
      bytes.append(UInt8(ascii: "]"))
    }

    /// `"YYYY-MM-DDTHH:MM:SSZ"`, with the day's part kept from earlier dates on that day (a
    /// line's first- and last-seen days, and a run's listings, share a handful of days).
    mutating func date(_ date: Date) {
      let seconds = Int(date.timeIntervalSince1970.rounded(.down))
      let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
      let slot: Int
      if let known = dayPrefixes.firstIndex(where: { $0.days == days }) {
        slot = known
      } else {
        var prefix: [UInt8] = [UInt8(ascii: "\"")]
        ISODate.write(Date(timeIntervalSince1970: Double(days * 86_400)), into: &prefix)
        prefix.removeLast(9)  // "00:00:00Z"
        if dayPrefixes.count < 4 {
          slot = dayPrefixes.count
          dayPrefixes.append((days, prefix))
        } else {
          slot = days & 3
          dayPrefixes[slot] = (days, prefix)
        }
      }
      bytes.append(contentsOf: dayPrefixes[slot].prefix)
      let time = seconds - days * 86_400
      let (hour, minute, second) = (time / 3600, time / 60 % 60, time % 60)
      let clock: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
        UInt8(truncatingIfNeeded: 48 + hour / 10), UInt8(truncatingIfNeeded: 48 + hour % 10),
        UInt8(ascii: ":"),
        UInt8(truncatingIfNeeded: 48 + minute / 10), UInt8(truncatingIfNeeded: 48 + minute % 10),
        UInt8(ascii: ":"),
        UInt8(truncatingIfNeeded: 48 + second / 10), UInt8(truncatingIfNeeded: 48 + second % 10),
        UInt8(ascii: "Z"), UInt8(ascii: "\"")
      )
      withUnsafeBytes(of: clock) { bytes.append(contentsOf: $0) }
    }

    /// `  "key" : <Codable, pretty, sorted, indented>,`
    mutating func member<T: Encodable>(_ key: String, codable value: T, last: Bool) throws {
      let data = try StateStore.encoder.encode(value)
      raw("  ")
      string(key)
      raw(" : ")
      var first = true
      for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        if !first { raw("\n  ") }
        bytes.append(contentsOf: line)
        first = false
      }
      raw(last ? "\n" : ",\n")
    }
  }

  // MARK: - Reading

  /// Reads the file's bytes in place.
  static func decode(_ data: Data) throws -> State {
    try data.withUnsafeBytes { raw in try decode(raw.bindMemory(to: UInt8.self)) }
  }

  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> State {
    var scanner = JSONScanner(bytes: bytes)
    var members: [String: Range<Int>] = [:]
    try scanner.object { key, scanner in
      let start = scanner.position
      try scanner.skipValue()
      members[key] = start..<scanner.position
    }
    func text(_ range: Range<Int>) -> Data { Data(UnsafeBufferPointer(rebasing: bytes[range])) }
    guard let versionRange = members["version"],
      let version = Int(
        String(decoding: UnsafeBufferPointer(rebasing: bytes[versionRange]), as: UTF8.self))
    else { throw StateCodecError("no 'version'") }
    if version > State.currentVersion { throw StateCodecError.newer(version) }
    if version == 1 {
      return try StateStore.decoder.decode(State.self, from: Data(buffer: bytes))
    }
    var state = State()
    func section<T: Decodable>(_ key: String, _ type: T.Type) throws -> T? {
      guard let range = members[key] else { return nil }
      return try StateStore.decoder.decode(T.self, from: text(range))
    }
    state.cooldowns = try section("cooldowns", [String: Cooldown].self) ?? [:]
    state.held = try section("held", [HeldListing].self) ?? []
    state.recent = try section("recent", [RecentListing].self) ?? []
    state.undelivered = try section("undelivered", [Undelivered].self) ?? []
    state.validators = try section("validators", [String: Validators].self) ?? [:]
    if let range = members["searches"] {
      var searches = JSONScanner(bytes: bytes, position: range.lowerBound)
      state.searches = try readSearches(&searches)
    }
    return state
  }

  private static func readSearches(_ scanner: inout JSONScanner) throws -> [String: SearchState] {
    var searches: [String: SearchState] = [:]
    var lists = ListCache()
    try scanner.object { name, scanner in
      var search = SearchState(sources: nil)  // absent: written before sources were kept
      try scanner.object { key, scanner in
        switch key {
        case "lastRun": search.lastRun = try scanner.nullOrString().map(Self.date)
        case "lastAttempt": search.lastAttempt = try scanner.nullOrString().map(Self.date)
        case "sources": search.sources = try scanner.strings()
        case "seen":
          // About 80 bytes a line up to the object's end (an estimate: an id holding a brace
          // only makes it low): reserve once instead of growing a million-entry table.
          search.seen.reserveCapacity((scanner.offset(of: UInt8(ascii: "}")) ?? 0) / 80)
          try scanner.object { id, scanner in
            try scanner.expect(UInt8(ascii: "["))
            let first = try scanner.date()
            try scanner.expect(UInt8(ascii: ","))
            let last = try scanner.date()
            try scanner.expect(UInt8(ascii: ","))
            let delivered = try lists.strings(&scanner)
            try scanner.expect(UInt8(ascii: ","))
            let pending = try lists.strings(&scanner)
            try scanner.expect(UInt8(ascii: "]"))
            search.seen[id] = SeenListing(
              firstSeen: first, lastSeen: last, deliveredTo: delivered, pending: pending)
          }
        default: try scanner.skipValue()
        }
      }
      searches[name] = search
    }
    return searches
  }

  /// Channel lists repeat on most lines (`[]`, `["phone"]`): one array is shared by every line
  /// that spells the list the same way, instead of a million equal copies.
  private struct ListCache {
    var known: [(spelling: [UInt8], list: [String])] = []

    mutating func strings(_ scanner: inout JSONScanner) throws -> [String] {
      scanner.skipSpace()
      let start = scanner.position
      var probe = scanner
      try probe.skipValue()
      let spelling = UnsafeBufferPointer(rebasing: scanner.bytes[start..<probe.position])
      if spelling.count == 2, spelling[0] == UInt8(ascii: "["), spelling[1] == UInt8(ascii: "]") {
        scanner = probe
        return []
      }
      if let entry = known.first(where: { $0.spelling.elementsEqual(spelling) }) {
        scanner = probe
        return entry.list
      }
      let list = try scanner.strings()
      if known.count < 16 { known.append((Array(spelling), list)) }
      return list
    }
  }

  private static func date(_ text: String) throws -> Date {
    guard let date = ISODate.parse(text) else { throw StateCodecError("'\(text)' is not a time") }
    return date
  }
}

/// What is wrong with a state file's text.
struct StateCodecError: Error, CustomStringConvertible {
  var description: String
  var newerVersion: Int?

  init(_ description: String) { self.description = description }

  static func newer(_ version: Int) -> StateCodecError {
    var error = StateCodecError("version \(version)")
    error.newerVersion = version
    return error
  }
}
