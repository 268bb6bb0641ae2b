import Foundation
import Testing
import Tracing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The delivery trace in a folder of its own: each event is a line `<event> <ns> <detail>`
/// appended to the file, the clock never going back, and no file opened without a path.
@Suite struct DeliveryTraceTests {
  /// A path in a new temporary folder.
  static func path() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("trace.log").path
  }

  @Test func eachEventIsALineAppendedToTheFile() throws {
    let path = try Self.path()
    try "earlier line\n".write(toFile: path, atomically: true, encoding: .utf8)
    let file = DeliveryTrace.openForAppending(path)
    #expect(file >= 0)
    DeliveryTrace.append("read", "key-1", to: file)
    DeliveryTrace.append("committed", "phone 7931742798", to: file)
    close(file)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 3, "appended after what was there")
    #expect(lines.first == "earlier line")
    let fields = lines.dropFirst().map { $0.split(separator: " ", maxSplits: 2).map(String.init) }
    #expect(fields.map { $0.first } == ["read", "committed"])
    #expect(fields.map { $0.last } == ["key-1", "phone 7931742798"])
    let times = fields.compactMap { $0.count == 3 ? Int($0[1]) : nil }
    #expect(times.count == 2 && times[0] <= times[1], "monotonic nanoseconds: \(times)")
  }

  @Test func aMissingFileIsMadeAndNoPathOpensNone() throws {
    let path = try Self.path()
    let file = DeliveryTrace.openForAppending(path)
    #expect(file >= 0)
    close(file)
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(DeliveryTrace.openForAppending(nil) == -1)
    #expect(DeliveryTrace.openForAppending("") == -1)
  }
}
