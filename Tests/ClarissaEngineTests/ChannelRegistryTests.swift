import ClarissaCore
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// The registry is the one list of kinds: each kind but the terminal can send.
@Suite struct ChannelRegistryTests {
  @Test(arguments: ChannelKinds.all.map(\.kind.rawValue))
  func everyKindButTheTerminalHasASender(name: String) throws {
    let kind = try #require(ChannelKinds.named(Channel.Kind(rawValue: name)))
    #expect((kind is any ChannelDelivering) == (kind.kind != .stdout))
  }
}
