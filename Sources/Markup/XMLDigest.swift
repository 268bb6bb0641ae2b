/// The digest of a folded element (``XMLEventParser``): everything the element held (its own
/// name and attributes, every element, attribute and text inside it, in order) as 128 bits.
/// The same content always gives the same digest, in every process and on every machine; text
/// is digested as one run whatever libxml2 split it into. It tells contents apart, it does not
/// hide them: a document's author can make two contents collide, and then one listing of their
/// own feed keeps its older fields (docs/performance.md, "Unchanged items").
public struct XMLDigest: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The two halves.
  public var high: UInt64
  public var low: UInt64

  /// Creates a digest.
  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The digest of `bytes`.
  public init(_ bytes: UnsafeRawBufferPointer) {
    var lanes = DigestLanes()
    lanes.add(bytes)
    self = lanes.finished
  }

  /// The digest of this one and `text` together: what an element's content means in its
  /// document (the base its links are resolved against, the format it is read as).
  public func mixed(with text: String) -> XMLDigest {
    var lanes = DigestLanes(high: high, low: low)
    var text = text
    text.withUTF8 { lanes.add(UnsafeRawBufferPointer($0)) }
    return lanes.finished
  }

  /// 32 lower-case hex digits.
  public var description: String {
    [high, low].map {
      let digits = String($0, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }.joined()
  }

  /// The digest a ``description`` wrote, or nil (read by hand: a poll reads 20,000 of them, and
  /// `UInt64(_:radix:)` on a substring took a twentieth of it).
  public init?(_ text: String) {
    var text = text
    guard
      let halves = text.withUTF8({ bytes -> (UInt64, UInt64)? in
        guard bytes.count == 32, let high = Self.hex(bytes, from: 0),
          let low = Self.hex(bytes, from: 16)
        else { return nil }
        return (high, low)
      })
    else { return nil }
    self.init(high: halves.0, low: halves.1)
  }

  private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64? {
    var value: UInt64 = 0
    for byte in bytes[start..<start + 16] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: return nil
      }
      value = value << 4 | UInt64(digit)
    }
    return value
  }
}

/// Two 64-bit lanes over 8-byte words (a multiply and a shift per word each): about a byte a
/// cycle, where FNV-1a takes a multiply per byte.
struct DigestLanes {
  private var high: UInt64
  private var low: UInt64
  private var count: UInt64 = 0

  init(high: UInt64 = 0x243F_6A88_85A3_08D3, low: UInt64 = 0x1319_8A2E_0370_7344) {
    self.high = high
    self.low = low
  }

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset + 8 <= bytes.count {
      word(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
      offset += 8
    }
    if offset < bytes.count {
      var tail: UInt64 = 0
      for index in offset..<bytes.count {
        tail |= UInt64(bytes[index]) << (UInt64(index - offset) * 8)
      }
      word(tail ^ 0x80)
    }
    count &+= UInt64(bytes.count)
  }

  private mutating func word(_ value: UInt64) {
    high = (high ^ value) &* 0x9E37_79B9_7F4A_7C15
    high ^= high >> 29
    low = (low &+ value) &* 0xC2B2_AE3D_27D4_EB4F
    low = (low << 31) | (low >> 33)
  }

  var finished: XMLDigest {
    XMLDigest(high: Self.mix(high ^ count), low: Self.mix(low &+ count &+ high))
  }

  /// MurmurHash3's finaliser.
  private static func mix(_ value: UInt64) -> UInt64 {
    var value = value
    value ^= value >> 33
    value &*= 0xFF51_AFD7_ED55_8CCD
    value ^= value >> 33
    value &*= 0xC4CE_B9FE_1A85_EC53
    value ^= value >> 33
    return value
  }
}

/// A folded element's events, written compactly as libxml2 gives them, for its digest and, if
/// its reader wants them after all, to be handed over then. One buffer, reused element after
/// element. Records: a start (1, name, 0, namespace flag and namespace, 0, attribute count,
/// then per attribute name, 0, namespace flag and namespace, 0, value length, value), an end
/// (2, name, 0, namespace flag and namespace, 0), a run of text (3, length, bytes): text split by
/// libxml2 is written as one run, so the digest does not depend on where a chunk ended.
struct FoldBuffer {
  private(set) var bytes: [UInt8] = []
  /// Where the open text run's length is written.
  private var openText: Int?
  /// Elements open inside the folded one, itself included.
  private(set) var depth = 0

  var isFolding: Bool { depth > 0 }

  mutating func start(
    _ name: UnsafePointer<UInt8>?, _ namespace: UnsafePointer<UInt8>?, _ count: Int32,
    _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
  ) {
    closeText()
    depth += 1
    bytes.append(1)
    self.name(name, namespace)
    let total = max(Int(count), 0)
    append(UInt32(total))
    for index in 0..<total {
      guard let attributes else { break }
      let base = attributes + index * 5
      self.name(base[0], base[2])
      let start = base[3]
      let length = start.flatMap { start in base[4].map { $0 - start } } ?? 0
      append(UInt32(length))
      if let start, length > 0 {
        bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: length))
      }
    }
  }

  /// Returns true when this end closes the folded element.
  mutating func end(_ name: UnsafePointer<UInt8>?, _ namespace: UnsafePointer<UInt8>?) -> Bool {
    closeText()
    bytes.append(2)
    self.name(name, namespace)
    depth -= 1
    return depth == 0
  }

  mutating func text(_ pointer: UnsafePointer<UInt8>, _ count: Int) {
    if openText == nil {
      bytes.append(3)
      openText = bytes.count
      append(UInt32(0))
    }
    bytes.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
  }

  var digest: XMLDigest { bytes.withUnsafeBytes { XMLDigest($0) } }

  mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    openText = nil
    depth = 0
  }

  private mutating func closeText() {
    guard let at = openText else { return }
    let length = UInt32(truncatingIfNeeded: bytes.count - at - 4)
    withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(at..<at + 4, with: $0) }
    openText = nil
  }

  private mutating func name(_ name: UnsafePointer<UInt8>?, _ namespace: UnsafePointer<UInt8>?) {
    if let name { cString(name) }
    bytes.append(0)
    if let namespace {
      bytes.append(1)
      cString(namespace)
    }
    bytes.append(0)
  }

  private mutating func cString(_ pointer: UnsafePointer<UInt8>) {
    var cursor = pointer
    while cursor.pointee != 0 {
      bytes.append(cursor.pointee)
      cursor += 1
    }
  }

  private mutating func append(_ value: UInt32) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  /// The events written, the folded element's own start left out (it was handed over before
  /// the fold began). `wantsText` is asked after each start and end, as the parse does.
  func replay(wantsText: () -> Bool, _ give: (XMLEvent) -> Void) {
    bytes.withUnsafeBufferPointer { buffer in
      var reader = Cursor(buffer: buffer)
      var first = true
      var wanted = false
      while let kind = reader.byte() {
        switch kind {
        case 1:
          let (name, namespace) = reader.name()
          var attributes: [XMLAttribute] = []
          let count = Int(reader.uint32())
          attributes.reserveCapacity(count)
          for _ in 0..<count {
            let (attribute, attributeNamespace) = reader.name()
            let value = reader.slice(Int(reader.uint32()))
            attributes.append(
              XMLAttribute(
                name: attribute, namespace: attributeNamespace,
                value: XMLEventParser.attributeValue(value)))
          }
          if first {
            first = false
          } else {
            give(.start(XMLElement(name: name, namespace: namespace, attributes: attributes)))
          }
          wanted = wantsText()
        case 2:
          let (name, namespace) = reader.name()
          give(.end(name: name, namespace: namespace))
          wanted = wantsText()
        default:
          let text = reader.slice(Int(reader.uint32()))
          if wanted, !text.isEmpty { give(.text(String(decoding: text, as: UTF8.self))) }
        }
      }
    }
  }

  /// Reads the records back.
  private struct Cursor {
    let buffer: UnsafeBufferPointer<UInt8>
    var offset = 0

    mutating func byte() -> UInt8? {
      guard offset < buffer.count else { return nil }
      defer { offset += 1 }
      return buffer[offset]
    }

    mutating func uint32() -> UInt32 {
      var value: UInt32 = 0
      for shift in 0..<4 { value |= UInt32(byte() ?? 0) << (shift * 8) }
      return value
    }

    mutating func slice(_ count: Int) -> UnsafeBufferPointer<UInt8> {
      let length = min(count, buffer.count - offset)
      defer { offset += length }
      return UnsafeBufferPointer(rebasing: buffer[offset..<offset + length])
    }

    mutating func cString() -> String {
      let start = offset
      while offset < buffer.count, buffer[offset] != 0 { offset += 1 }
      defer { offset += 1 }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<offset]), as: UTF8.self)
    }

    mutating func name() -> (String, String?) {
      let name = cString()
      guard byte() == 1 else { return (name, nil) }
      return (name, cString())
    }
  }
}
