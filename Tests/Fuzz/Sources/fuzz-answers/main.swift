import ClarissaCore
import ClarissaEngine
import Dispatch
import FuzzSupport
import ListingStore
import ListingText
import Sites

/// Any bytes as a server's answer (status, headers, body) through the scheduler's handling of
/// it (429/503 with `Retry-After`, 403, 304, validators, cool-downs), then the feed adapter, the
/// listing checks and the cool-down's advice: an outcome, never a crash or a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let response = AnswerBytes.response(Array(UnsafeBufferPointer(start: data, count: size)))
  AnswerBytes.handle(response)
  return 0
}

@_cdecl("fuzz_answers_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  runFuzzer(argc, argv, fuzz)
}
