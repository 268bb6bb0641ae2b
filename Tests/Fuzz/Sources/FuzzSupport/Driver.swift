/// libFuzzer's driver, started from a target's entry point. SwiftPM links an executable's
/// entry point as `<module>_main`, so each target exports that name and calls this.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs libFuzzer over `callback` with the process's arguments.
public func runFuzzer(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt {
  var count = argc
  var arguments = argv
  return runDriver(&count, &arguments, callback)
}
