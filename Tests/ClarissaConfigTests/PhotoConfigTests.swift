import Channels
import ClarissaConfig
import ClarissaCore
import Foundation
import Sites
import Testing

/// `photos:`: the photo fingerprints of new listings, on by default, `off` with one key, its
/// numbers bounded; every problem located at its line and column.
@Suite struct PhotoConfigTests {
  static func load(_ photos: String?) -> ConfigLoadResult {
    let section = photos.map { "photos:\($0)" } ?? ""
    let yaml = "version: 1\n\(section)searches:\n  - name: s\n    cities: [sfbay]\n"
    return ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "flats.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
  }

  @Test func onByDefaultOffWithOneKey() throws {
    #expect(
      Self.load(nil).config?.photos == PhotoSettings(enabled: true, perListing: 2, perRun: 200))
    for off in [" off\n", " false\n"] {
      let loaded = Self.load(off)
      #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.message))")
      #expect(loaded.config?.photos.enabled == false)
    }
    let loaded = Self.load("\n  per_listing: 3\n  per_run: 50\n")
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.message))")
    #expect(loaded.config?.photos == PhotoSettings(enabled: true, perListing: 3, perRun: 50))
  }

  @Test(arguments: [
    (" maybe\n", 2, 9, "expected 'off' or a mapping"),
    ("\n  per_listing: 0\n", 3, 16, "'photos.per_listing'"),
    ("\n  per_run: 20000\n", 3, 12, "'photos.per_run'"),
    ("\n  per_lsting: 2\n", 3, 3, "unknown key 'per_lsting' in 'photos'"),
  ])
  func problemsAreLocated(yaml: String, line: Int, column: Int, message: String) {
    let loaded = Self.load(yaml)
    let error = loaded.diagnostics.first { $0.severity == .error }
    #expect(error?.message.contains(message) == true, "\(loaded.diagnostics.map(\.message))")
    #expect(error?.location?.line == line && error?.location?.column == column)
  }
}
