import Channels
import ClarissaConfig
import ClarissaCore
import Foundation
import Sites
import Testing

/// `serve:`: the web interface's address as a phone reaches it (the buttons' links), and
/// `clarissa serve`'s defaults; every problem located at its line and column.
@Suite struct ServeConfigTests {
  static func load(_ serve: String) -> ConfigLoadResult {
    let yaml = "version: 1\nserve:\n\(serve)searches:\n  - name: s\n    cities: [sfbay]\n"
    return ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "flats.yaml", environment: ["HOST": "flats.example.net"],
      sites: Registry.sites, channels: ChannelRegistry.all)
  }

  @Test func everyKeyIsRead() throws {
    let loaded = Self.load(
      "  url: https://${HOST}/clarissa\n  address: 0.0.0.0:8421\n  token_file: token\n"
        + "  key_file: keys/actions.key\n  action_expiry: 3d\n")
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.message))")
    let serve = try #require(loaded.config?.serve)
    #expect(
      serve
        == ServeSettings(
          url: "https://flats.example.net/clarissa", address: "0.0.0.0:8421", tokenFile: "token",
          keyFile: "keys/actions.key", actionExpiry: .days(3)))
  }

  @Test func theDefaults() throws {
    let loaded = Self.load("  url: http://192.168.1.20:8421\n")
    let serve = try #require(loaded.config?.serve)
    #expect(serve.actionExpiry == .days(7))
    #expect(serve.address == nil && serve.tokenFile == nil && serve.keyFile == nil)
    #expect(Self.load("").config?.serve == nil, "an empty section is none")
  }

  @Test(arguments: [
    ("  url: ftp://flats.example.net\n", 3, 8, "'serve.url' must begin with https://"),
    ("  url: https://ann:pw@flats.example.net\n", 3, 8, "may not carry a user or password"),
    ("  url: https://flats.example.net/?a=1\n", 3, 8, "may not have a query"),
    ("  url: https://\n", 3, 8, "needs a host"),
    ("  url: https://flats.example.net/a,b\n", 3, 8, "may not hold ','"),
    ("  url: https://bücher.example\n", 3, 8, "punycode"),
    ("  url: https://x.example\n  action_expiry: 400d\n", 4, 18, "longer than a year"),
    ("  url: https://x.example\n  expiry: 3d\n", 4, 3, "unknown key 'expiry' in 'serve'"),
    ("  url: https://x.example\n  action_expiry: 3\n", 4, 18, "expected a duration"),
  ])
  func problemsAreLocated(yaml: String, line: Int, column: Int, message: String) {
    let loaded = Self.load(yaml)
    let error = loaded.diagnostics.first { $0.severity == .error }
    #expect(error?.message.contains(message) == true, "\(loaded.diagnostics.map(\.message))")
    #expect(error?.location?.line == line && error?.location?.column == column)
    #expect(loaded.config == nil || loaded.diagnostics.hasErrors)
  }
}
