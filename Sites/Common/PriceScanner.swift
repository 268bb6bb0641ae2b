/// ``FeedPrice``'s two regular expressions as a scan over UTF-8 bytes: the same first match of
/// each, with the same groups, without ICU (matching through it was a fifth of a poll of a known
/// feed). It follows the expressions' backtracking order step by step: the leftmost start, then
/// the alternatives in the order written, greedy quantifiers longest first.
///
/// It reads texts whose characters it can class exactly as the expressions do: ASCII, and the
/// non-ASCII characters the expressions name (`€ £ ¥ ₹`, the no-break space, `’`, `–`, `—`),
/// `×`, `÷`, and the Latin-1 letters (`ü`, `é`: word characters for `\b`, no digits). Any other character
/// (a digit of another script, which `\d` matches; a letter `\b` would have to look up) makes
/// ``init(_:)`` return nil, and the caller runs the expressions. `PriceScannerTests` compares both over every fixture
/// text and many made-up ones.
struct PriceScanner {
  /// A first match: where its parts are, as byte offsets into the text.
  struct Match: Equatable {
    var marker: Range<Int>
    var amount: Range<Int>
    /// The amount touches the marker (no space between).
    var touches: Bool
  }

  private let bytes: [UInt8]

  /// A scanner over `text`; nil when the text holds a character it cannot class.
  init?(_ text: String) {
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      guard bytes[index] >= 0x80 else {
        index += 1
        continue
      }
      let length = Self.knownLength(bytes, index)
      guard length > 0 else { return nil }
      index += length
    }
    self.bytes = bytes
  }

  /// The text between `range`'s offsets.
  func text(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// The first match of `(marker)(spacing)(number)`.
  func markerFirst() -> Match? {
    var start = 0
    while start < bytes.count {
      if let markerEnd = marker(at: start) {
        if isDigit(markerEnd), let amount = numbers(at: markerEnd).first {
          return Match(marker: start..<markerEnd, amount: amount.group, touches: true)
        }
        let spaced = markerEnd + spacing(at: markerEnd)
        if spaced > markerEnd, isDigit(spaced), let amount = numbers(at: spaced).first {
          return Match(marker: start..<markerEnd, amount: amount.group, touches: false)
        }
      }
      start += 1
    }
    return nil
  }

  /// The first match of `(number)(spacing)(marker)`.
  func numberFirst() -> Match? {
    for start in bytes.indices where isDigit(start) {
      for number in numbers(at: start) {
        let space = spacing(at: number.end)
        // `[ \u00A0]?` is greedy: with the space first, then without.
        for spaced in space > 0 ? [number.end + space, number.end] : [number.end] {
          if let markerEnd = marker(at: spaced) {
            return Match(
              marker: spaced..<markerEnd, amount: number.group, touches: spaced == number.end)
          }
        }
      }
    }
    return nil
  }

  // MARK: - The expressions' parts

  /// Where a marker starting at `index` ends: `US$`, `CA?$`, `AU?$`, `NZ$`, a sign, or a code
  /// between word boundaries.
  private func marker(at index: Int) -> Int? {
    for prefix in Self.dollarPrefixes where matches(prefix, at: index) {
      return index + prefix.count
    }
    if let sign = Self.signLength(bytes, index) { return index + sign }
    guard index + 3 <= bytes.count, isBoundary(index), isBoundary(index + 3) else { return nil }
    let code = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
    return Self.codes.contains(code) ? index + 3 : nil
  }

  /// The ways `number` matches at `index`, in the order the expression tries them: the
  /// amount (group) and where the whole number (with a trailing `.–`) ends.
  private func numbers(at index: Int) -> [(group: Range<Int>, end: Int)] {
    var run = index
    while isDigit(run) { run += 1 }
    guard run > index else { return [] }
    var ends: [Int] = []
    // `\d{1,3}(?:[.,'’\u00A0 ]\d{3})+`: only the whole run of at most three digits can be
    // followed by a separator; the repetitions are greedy, most first.
    if run - index <= 3 {
      var groups: [Int] = []
      var end = run
      while case let separator = separatorLength(at: end), separator > 0,
        (0..<3).allSatisfy({ isDigit(end + separator + $0) })
      {
        end += separator + 3
        groups.append(end)
      }
      ends += groups.reversed().flatMap(decimals)
    }
    // `\d+`: the whole run, then shorter (after which a digit follows: no cents, no dash).
    ends += decimals(after: run)
    ends += (index + 1..<run).reversed()
    return ends.flatMap { end in trailing(after: end).map { (index..<end, $0) } }
  }

  /// `(?:[.,]\d{1,2})?` after `end`: two digits, one, none.
  private func decimals(after end: Int) -> [Int] {
    guard isDecimalMark(end), isDigit(end + 1) else { return [end] }
    return isDigit(end + 2) ? [end + 3, end + 2, end] : [end + 2, end]
  }

  /// `(?:[.,][–—-]+)?` after `end`: every dash, fewer, then none.
  private func trailing(after end: Int) -> [Int] {
    guard isDecimalMark(end) else { return [end] }
    var dashes: [Int] = []
    var index = end + 1
    while let dash = Self.dashLength(bytes, index) {
      index += dash
      dashes.append(index)
    }
    return dashes.reversed() + [end]
  }

  private func matches(_ literal: [UInt8], at index: Int) -> Bool {
    index + literal.count <= bytes.count
      && literal.indices.allSatisfy { bytes[index + $0] == literal[$0] }
  }

  private func isDigit(_ index: Int) -> Bool {
    index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39
  }

  private func isDecimalMark(_ index: Int) -> Bool {
    index < bytes.count && (bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ","))
  }

  /// `[ \u00A0]`'s length at `index`, 0 when neither.
  private func spacing(at index: Int) -> Int {
    guard index < bytes.count else { return 0 }
    if bytes[index] == 0x20 { return 1 }
    return matches([0xC2, 0xA0], at: index) ? 2 : 0
  }

  /// `[.,'’\u00A0 ]`'s length at `index`, 0 when none.
  private func separatorLength(at index: Int) -> Int {
    guard index < bytes.count else { return 0 }
    switch bytes[index] {
    case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "'"), 0x20: return 1
    default: return matches([0xE2, 0x80, 0x99], at: index) ? 3 : spacing(at: index)
    }
  }

  /// `\b`: a word character on one side only (ASCII letters, digits and `_`, and the Latin-1
  /// letters; the other non-ASCII characters the scanner reads are none).
  private func isBoundary(_ index: Int) -> Bool {
    isWordBefore(index) != isWordAt(index)
  }

  private func isWordAt(_ index: Int) -> Bool {
    guard index < bytes.count else { return false }
    let byte = bytes[index]
    if byte >= 0x80 {
      return index + 1 < bytes.count && Self.isLatinLetter(byte, bytes[index + 1])
    }
    return (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
      || byte == UInt8(ascii: "_")
  }

  private func isWordBefore(_ index: Int) -> Bool {
    guard index > 0 else { return false }
    if bytes[index - 1] < 0x80 { return isWordAt(index - 1) }
    return index >= 2 && Self.isLatinLetter(bytes[index - 2], bytes[index - 1])
  }
}

// MARK: - The characters it reads

extension PriceScanner {
  /// The markers that end in `$`, longest first where one is the other's end (`CA$`, `C$`).
  fileprivate static let dollarPrefixes: [[UInt8]] = ["US$", "CA$", "C$", "AU$", "A$", "NZ$"].map {
    Array($0.utf8)
  }

  /// ``FeedPrice``'s codes, three ASCII letters packed.
  fileprivate static let codes: Set<UInt32> = Set(
    FeedPrice.codes.map { $0.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } })

  /// `[$€£¥₹]`'s length at `index`, nil when none.
  fileprivate static func signLength(_ bytes: [UInt8], _ index: Int) -> Int? {
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "$"): return 1
    case 0xC2:
      return index + 1 < bytes.count && (bytes[index + 1] == 0xA3 || bytes[index + 1] == 0xA5)
        ? 2 : nil
    case 0xE2:
      guard index + 2 < bytes.count, bytes[index + 1] == 0x82 else { return nil }
      return bytes[index + 2] == 0xAC || bytes[index + 2] == 0xB9 ? 3 : nil
    default: return nil
    }
  }

  /// `[–—-]`'s length at `index`, nil when none.
  fileprivate static func dashLength(_ bytes: [UInt8], _ index: Int) -> Int? {
    guard index < bytes.count else { return nil }
    if bytes[index] == UInt8(ascii: "-") { return 1 }
    guard index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80,
      bytes[index + 2] == 0x93 || bytes[index + 2] == 0x94
    else { return nil }
    return 3
  }

  /// The length of the non-ASCII character at `index` when the scanner can class it: one the
  /// expressions name (a sign, the no-break space, `’`, `–`, `—`), `×` or `÷` (none of them a
  /// word character), or a Latin-1 letter (`À` to `ÿ`: word characters, no digits). 0 otherwise.
  fileprivate static func knownLength(_ bytes: [UInt8], _ index: Int) -> Int {
    if let sign = signLength(bytes, index) { return sign }
    if let dash = dashLength(bytes, index) { return dash }
    guard index + 1 < bytes.count else { return 0 }
    let (lead, next) = (bytes[index], bytes[index + 1])
    if lead == 0xC2, next == 0xA0 { return 2 }
    if isLatinLetter(lead, next) || (lead == 0xC3 && (next == 0x97 || next == 0xB7)) { return 2 }
    if lead == 0xE2, next == 0x80, index + 2 < bytes.count, bytes[index + 2] == 0x99 { return 3 }
    return 0
  }

  /// `À` to `ÿ` but `×` and `÷` (U+00C0 to U+00FF), as UTF-8.
  fileprivate static func isLatinLetter(_ lead: UInt8, _ next: UInt8) -> Bool {
    lead == 0xC3 && next >= 0x80 && next <= 0xBF && next != 0x97 && next != 0xB7
  }
}
