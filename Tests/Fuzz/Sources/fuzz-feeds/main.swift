import Feeds
import FuzzSupport

/// Any bytes as a feed (XML or JSON): a document or a FeedError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  _ = try? FeedParser.parse(
    Array(UnsafeBufferPointer(start: data, count: size)), url: "https://example.org/feed")
  return 0
}

@_cdecl("fuzz_feeds_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  runFuzzer(argc, argv, fuzz)
}
