import ClarissaCore
import Sites

/// Any bytes as a sapi answer for sfbay: listings or a SiteError, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let site = CraigslistSite()
  let request = site.request(forSavedResponseIn: "api", city: "sfbay")
  _ = try? site.listings(from: SourceResponse(request: request, body: Array(UnsafeBufferPointer(start: data, count: size))))
  return 0
}

// SwiftPM links an executable's entry point as `<module>_main`; libFuzzer's driver runs from it.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_sapi_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments, fuzz)
}
