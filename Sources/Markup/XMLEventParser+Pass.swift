internal import CLibXML2
internal import Foundation

/// Passing over elements unread (``XMLEventParser/parse(bytes:limits:skippingText:passDepth:passing:_:)``;
/// docs/performance.md, "Unchanged items"): the document's markup is scanned ahead of libxml2
/// (``XMLMarkupScanner``), each element of the depth the reader names is digested as written,
/// and one the reader knows is never given to libxml2.
extension XMLEventParser {
  /// Gives libxml2 the document up to its root's start tag, then each element of the depth
  /// `passDepth` names that `passing` does not pass over, with what lies between; stops where
  /// the scanner cannot go on (the rest is then given as it is).
  func passOver(_ bytes: UnsafeBufferPointer<UInt8>, feed: inout ChunkFeed) {
    var scanner = XMLMarkupScanner(bytes)
    guard let root = scanner.root() else { return }
    feed.give(upTo: root.upperBound)
    guard !stopped, feed.caughtUp, let depth = passDepth(), depth >= 2 else { return }
    // The start tags of the elements open above that depth, the root's first.
    var open = [root]
    var context: DigestLanes?
    while !stopped, let tag = scanner.next() {
      switch tag {
      case .end:
        open.removeLast()
        context = nil
        if open.isEmpty { return }
      case .start(let range, let empty) where open.count + 1 < depth:
        if !empty {
          open.append(range)
          context = nil
        }
      case .start(let range, let empty):
        guard let end = empty ? range.upperBound : scanner.elementEnd() else { return }
        if scanner.isWhitespace(feed.offset..<range.lowerBound) {
          feed.skip(to: range.lowerBound)
        } else {
          feed.give(upTo: range.lowerBound)
        }
        if !stopped, feed.caughtUp {
          // What the element's bytes mean here: everything before the root (the declaration,
          // the DOCTYPE) and the start tags it is in (namespaces, xml:base).
          let lanes = context ?? Self.context(bytes, prolog: 0..<root.lowerBound, open: open)
          context = lanes
          var digest = lanes
          digest.add(
            UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end])))
          if passing(digest.finished) {
            feed.skip(to: end)
            continue
          }
        }
        feed.give(upTo: end)
      }
    }
  }

  private static func context(
    _ bytes: UnsafeBufferPointer<UInt8>, prolog: Range<Int>, open: [Range<Int>]
  ) -> DigestLanes {
    var lanes = DigestLanes()
    for range in [prolog] + open {
      lanes.add(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
    }
    return lanes
  }
}

/// The document given to libxml2's push parser in order, at most a chunk at a time (libxml2
/// copies each chunk into its own buffer and drops what it has read: the body is not copied
/// whole), less what is passed over, with its HTML entities replaced as it is given (a chunk
/// that holds one is copied into a buffer kept for the parse, and never ends inside one).
struct ChunkFeed {
  let context: xmlParserCtxtPtr
  let bytes: UnsafeBufferPointer<UInt8>
  /// The references to replace (``EntityRepair``), in document order.
  let repairs: [EntityRepair.Replacement]
  /// Whether to go on (the parse has not stopped).
  let going: () -> Bool
  /// Where the bytes not yet given (or passed over) start.
  private(set) var offset = 0
  /// The first reference at or after `offset`.
  private var nextRepair = 0
  /// A repaired chunk, as given.
  private var repaired: [UInt8] = []
  /// How many bytes libxml2 was given, and how many of them up to the last `>`.
  private var given = 0
  private var givenThroughTag = 0

  init(
    context: xmlParserCtxtPtr, bytes: UnsafeBufferPointer<UInt8>,
    repairs: [EntityRepair.Replacement] = [], going: @escaping () -> Bool
  ) {
    self.context = context
    self.bytes = bytes
    self.repairs = repairs
    self.going = going
  }

  /// Bytes given to libxml2 at a time.
  private static let chunk = 256 << 10

  /// Gives the bytes up to `end` while the parse goes on.
  mutating func give(upTo end: Int) {
    while offset < end, going() {
      var stop = min(offset + Self.chunk, end)
      var after = nextRepair
      while after < repairs.count, repairs[after].range.lowerBound < stop {
        stop = max(stop, repairs[after].range.upperBound)
        after += 1
      }
      if after == nextRepair {
        parse(UnsafeBufferPointer(rebasing: bytes[offset..<stop]))
      } else {
        repaired.removeAll(keepingCapacity: true)
        EntityRepair.write(
          bytes, offset..<stop, replacing: repairs[nextRepair..<after], into: &repaired)
        repaired.withUnsafeBufferPointer { parse($0) }
      }
      offset = stop
      nextRepair = after
    }
  }

  /// Gives `chunk` to libxml2 and counts it.
  private mutating func parse(_ chunk: UnsafeBufferPointer<UInt8>) {
    guard let base = chunk.baseAddress else { return }
    base.withMemoryRebound(to: CChar.self, capacity: chunk.count) {
      _ = xmlParseChunk(context, $0, Int32(chunk.count), 0)
    }
    if let last = chunk.lastIndex(of: UInt8(ascii: ">")) {
      givenThroughTag = given + last + 1
    }
    given += chunk.count
  }

  /// Leaves the bytes up to `end` out.
  mutating func skip(to end: Int) {
    offset = max(offset, end)
    while nextRepair < repairs.count, repairs[nextRepair].range.lowerBound < offset {
      nextRepair += 1
    }
  }

  /// Whether libxml2 has read all it was given up to the last tag: every event before the
  /// bytes not yet given has been handed over (libxml2 may hold back trailing text alone).
  var caughtUp: Bool { xmlByteConsumed(context) >= givenThroughTag }
}
