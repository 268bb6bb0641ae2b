import Channels
import ClarissaConfig
import ClarissaCore
import FuzzSupport
import Sites

/// Any bytes as a config: diagnostics with places, and a config only when there is no error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let result = ConfigLoader.load(
    bytes: Array(UnsafeBufferPointer(start: data, count: size)), name: "fuzz.yaml",
    environment: ["HOME": "/root"], sites: Registry.sites, channels: ChannelRegistry.all)
  if result.diagnostics.hasErrors != (result.config == nil) {
    fatalError("config and errors disagree")
  }
  _ = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
  return 0
}

@_cdecl("fuzz_config_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  runFuzzer(argc, argv, fuzz)
}
