import ClarissaCore
import Testing

@testable import Channels

/// The registry is the one list of kinds: each kind but the terminal can send.
@Suite struct ChannelRegistryTests {
  @Test(arguments: ChannelRegistry.all.map(\.kind.rawValue))
  func everyKindButTheTerminalHasASender(name: String) throws {
    let kind = try #require(ChannelRegistry.named(Channel.Kind(rawValue: name)))
    #expect((kind is any ChannelDelivering) == (kind.kind != .stdout))
  }
}
