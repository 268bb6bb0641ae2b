import ClarissaConfig
import ClarissaCore
import Sites

/// Any bytes as a config: diagnostics with places, and a config only when there is no error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let result = ConfigLoader.load(
    bytes: Array(UnsafeBufferPointer(start: data, count: size)), name: "fuzz.yaml",
    environment: ["HOME": "/root"], sites: Registry.sites)
  if result.diagnostics.hasErrors != (result.config == nil) { fatalError("config and errors disagree") }
  _ = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
  return 0
}

// SwiftPM links an executable's entry point as `<module>_main`; libFuzzer's driver runs from it.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_config_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments, fuzz)
}
