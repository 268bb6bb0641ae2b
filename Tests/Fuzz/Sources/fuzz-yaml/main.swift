import FuzzSupport
import YAML

/// Any bytes through libyaml and the node tree: no crash, no hang, every problem located.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let document = YAMLReader.read(Array(UnsafeBufferPointer(start: data, count: size)))
  for problem in document.problems where problem.mark.line < 1 || problem.mark.column < 1 {
    fatalError("a problem without a place: \(problem)")
  }
  return 0
}

@_cdecl("fuzz_yaml_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  runFuzzer(argc, argv, fuzz)
}
