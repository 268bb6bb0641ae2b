/// ``FeedPrice``'s two regular expressions as a scan over UTF-8 bytes: the same first match of
/// each, with the same groups, without ICU (matching through it was a fifth of a poll of a known
/// feed). It follows the expressions' backtracking order step by step: the leftmost start, then
/// the alternatives in the order written, greedy quantifiers longest first.
///
/// It reads texts whose characters it can class exactly as the expressions do: ASCII, and the
/// non-ASCII characters the expressions name (`€ £ ¥ ₹`, the no-break space, `’`, `–`, `—`),
/// `×`, `÷`, and the Latin-1 letters (`ü`, `é`: word characters for `\b`, no digits). Any other character
/// (a digit of another script, which `\d` matches; a letter `\b` would have to look up) makes
/// ``matches(in:)`` return nil, and the caller runs the expressions. `PriceScannerTests` compares both over every fixture
/// text and many made-up ones.
package struct PriceScanner {
  /// A first match: where its parts are, as byte offsets into the text.
  package struct Match: Equatable {
    var marker: Range<Int>
    var amount: Range<Int>
    /// The amount touches the marker (no space between).
    var touches: Bool
  }

  private let bytes: UnsafeBufferPointer<UInt8>

  /// Both expressions' first matches in `text` (`(marker)(spacing)(number)`, then
  /// `(number)(spacing)(marker)`); nil when the text holds a character the scanner cannot class.
  package static func matches(in text: String) -> (markerFirst: Match?, numberFirst: Match?)? {
    var text = text
    return text.withUTF8 { bytes in
      let scanner = PriceScanner(bytes: bytes)
      guard scanner.isReadable else { return nil }
      return (scanner.markerFirst(), scanner.numberFirst())
    }
  }

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// Whether every character is one the scanner can class.
  private var isReadable: Bool {
    var index = 0
    while index < bytes.count {
      guard bytes[index] >= 0x80 else {
        index += 1
        continue
      }
      let length = Self.knownLength(bytes, index)
      guard length > 0 else { return false }
      index += length
    }
    return true
  }

  /// The first match of `(marker)(spacing)(number)`: after a marker, the number's first way
  /// of matching is the match (nothing follows it that could fail).
  private func markerFirst() -> Match? {
    var start = 0
    while start < bytes.count {
      if let markerEnd = marker(at: start) {
        if isDigit(markerEnd) {
          return Match(
            marker: start..<markerEnd, amount: markerEnd..<firstNumberEnd(markerEnd),
            touches: true)
        }
        let spaced = markerEnd + spacing(at: markerEnd)
        if spaced > markerEnd, isDigit(spaced) {
          return Match(
            marker: start..<markerEnd, amount: spaced..<firstNumberEnd(spaced), touches: false)
        }
      }
      start += 1
    }
    return nil
  }

  /// The first match of `(number)(spacing)(marker)`: from each digit, every way the number
  /// matches, in the expression's order, until a marker follows one.
  private func numberFirst() -> Match? {
    var start = 0
    while start < bytes.count {
      if isDigit(start), let match = numberFirst(at: start) { return match }
      start += 1
    }
    return nil
  }

  private func numberFirst(at start: Int) -> Match? {
    var run = start
    while isDigit(run) { run += 1 }
    // `\d{1,3}(?:[.,'’\u00A0 ]\d{3})+`: only a whole run of at most three digits can be
    // followed by a separator; the repetitions are greedy, most first.
    if run - start <= 3 {
      var end = run
      while let next = repetition(after: end) { end = next }
      while end > run {
        if let match = decimals(start, end) { return match }
        end = repetitionStart(before: end)
      }
    }
    // `\d+`: the whole run. A shorter one is followed by a digit: no cents, no dash, no space
    // and no marker can come next, so it never matches.
    return decimals(start, run)
  }

  /// The way `number` first matches at `start` (a digit): its group's end.
  private func firstNumberEnd(_ start: Int) -> Int {
    var run = start
    while isDigit(run) { run += 1 }
    var end = run
    if run - start <= 3 {
      var repeated = run
      while let next = repetition(after: repeated) { repeated = next }
      end = repeated
    }
    if isDecimalMark(end), isDigit(end + 1) { end += isDigit(end + 2) ? 3 : 2 }
    return end
  }

  // MARK: - The number's optional parts, each way in the expression's order

  /// `(?:[.,]\d{1,2})?` after `end`: two digits, one, none; then the rest.
  private func decimals(_ start: Int, _ end: Int) -> Match? {
    if isDecimalMark(end), isDigit(end + 1) {
      if isDigit(end + 2), let match = trailing(start, end + 3) { return match }
      if let match = trailing(start, end + 2) { return match }
    }
    return trailing(start, end)
  }

  /// `(?:[.,][–—-]+)?` after the group ending at `group`: every dash, fewer, none; then the rest.
  private func trailing(_ start: Int, _ group: Int) -> Match? {
    if isDecimalMark(group) {
      var end = group + 1
      while let dash = Self.dashLength(bytes, end) { end += dash }
      while end > group + 1 {
        if let match = marker(start, group, after: end) { return match }
        end -= bytes[end - 1] == UInt8(ascii: "-") ? 1 : 3
      }
    }
    return marker(start, group, after: group)
  }

  /// `([ \u00A0]?)(marker)` after the number ending at `end`: with the space, then without.
  private func marker(_ start: Int, _ group: Int, after end: Int) -> Match? {
    let space = spacing(at: end)
    if space > 0, let markerEnd = marker(at: end + space) {
      return Match(marker: end + space..<markerEnd, amount: start..<group, touches: false)
    }
    return marker(at: end).map { Match(marker: end..<$0, amount: start..<group, touches: true) }
  }

  /// Where the repetition `[.,'’\u00A0 ]\d{3}` after `end` ends, if it matches there.
  private func repetition(after end: Int) -> Int? {
    let separator = separatorLength(at: end)
    guard separator > 0, isDigit(end + separator), isDigit(end + separator + 1),
      isDigit(end + separator + 2)
    else { return nil }
    return end + separator + 3
  }

  /// Where the repetition ending at `end` starts: the separators' last bytes tell them apart
  /// (`'`, `.`, `,`, a space; the no-break space's A0, `’`'s 99).
  private func repetitionStart(before end: Int) -> Int {
    let last = end - 4
    switch bytes[last] {
    case 0xA0: return last - 1
    case 0x99: return last - 2
    default: return last
    }
  }

  // MARK: - The expressions' parts

  /// Where a marker starting at `index` ends: `US$`, `CA?$`, `AU?$`, `NZ$`, a sign, or a code
  /// between word boundaries.
  private func marker(at index: Int) -> Int? {
    guard index < bytes.count else { return nil }
    let first = bytes[index]
    if first == UInt8(ascii: "$") { return index + 1 }
    if first == 0xC2 || first == 0xE2 { return Self.signLength(bytes, index).map { index + $0 } }
    guard first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return nil }
    for prefix in Self.dollarPrefixes where matches(prefix, at: index) {
      return index + prefix.count
    }
    guard index + 3 <= bytes.count, isBoundary(index), isBoundary(index + 3) else { return nil }
    let code = UInt32(first) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
    return Self.codes.contains(code) ? index + 3 : nil
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
  fileprivate static func signLength(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
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
  fileprivate static func dashLength(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
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
  fileprivate static func knownLength(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
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
