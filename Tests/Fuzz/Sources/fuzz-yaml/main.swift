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

// SwiftPM links an executable's entry point as `<module>_main`; libFuzzer's driver runs from it.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("fuzz_yaml_main")
public func entry(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments, fuzz)
}
