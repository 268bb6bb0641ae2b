import ClarissaCore
import FuzzSupport
import Markup
import Sites

/// Any bytes as a Craigslist search page and as description HTML: no crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let site = CraigslistSite()
  let request = site.request(forSavedResponseIn: "html", city: "newyork/mnh")
  _ = try? site.listings(from: SourceResponse(request: request, body: bytes))
  _ = HTMLText.plainText(fromHTML: String(decoding: bytes, as: UTF8.self))
  return 0
}

@_cdecl("fuzz_html_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  runFuzzer(argc, argv, fuzz)
}
