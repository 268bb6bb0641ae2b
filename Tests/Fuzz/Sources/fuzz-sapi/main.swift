import ClarissaCore
import FuzzSupport
import Sites

/// Any bytes as a sapi answer for sfbay: listings or a SiteError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let site = CraigslistSite()
  let request = site.request(forSavedResponseIn: "api", city: "sfbay")
  _ = try? site.listings(
    from: SourceResponse(
      request: request, body: Array(UnsafeBufferPointer(start: data, count: size))))
  return 0
}

@_cdecl("fuzz_sapi_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  runFuzzer(argc, argv, fuzz)
}
