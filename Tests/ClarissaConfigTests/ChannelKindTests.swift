import Channels
import ClarissaConfig
import ClarissaCore
import Foundation
import Sites
import Testing

/// Every kind of ``ChannelRegistry/all`` by its own declaration: its sample URL is valid, of its
/// kind, and redacted without its secret, in the report and in a diagnostic's quoted line.
@Suite struct ChannelKindTests {
  static func load(_ channels: [String: String]) -> ConfigLoadResult {
    let lines = channels.sorted { $0.key < $1.key }.map { "  \($0.key): '\($0.value)'" }
    let yaml = """
      version: 1
      notify:
      \(lines.joined(separator: "\n"))
      searches:
        - name: s
          cities: [sfbay]
          notify: [\(channels.keys.sorted().joined(separator: ", "))]
      """
    return ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "k.yaml", environment: ["PATH": "/nonexistent"],
      sites: Registry.sites, channels: ChannelRegistry.all)
  }

  static let kinds = ChannelRegistry.all.map(\.kind.rawValue)

  @Test(arguments: kinds) func theSampleIsValidAndRedacted(name: String) throws {
    let kind = try #require(ChannelRegistry.named(Channel.Kind(rawValue: name)))
    let secret = "Zz\(name)Hidden7"
    guard let url = kind.sample(secret: secret, host: "127.0.0.1:8080") else { return }
    let result = Self.load(["c": url])
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(url): \(errors)")
    let channel = try #require(result.config?.channels["c"])
    #expect(channel.kind == kind.kind)
    #expect(!channel.redactedURL.contains(secret), "\(channel.redactedURL)")
    #expect(channel.redactedURL.contains(ChannelRedactor.mask))
    let shown = DiagnosticRenderer(sources: ["k.yaml": ""]).render(result.diagnostics)
    #expect(!shown.contains(secret))
  }

  @Test func everySchemeBelongsToOneKind() {
    let schemes = ChannelRegistry.schemes
    #expect(Set(schemes).count == schemes.count, "\(schemes)")
    #expect(
      ChannelRegistry.all.map(\.kind.rawValue) == ChannelRegistry.all.map(\.kind.rawValue).sorted())
  }

  @Test func aTelegramTokenWithItsColonIsAURL() {
    let result = Self.load(["tg": "tgram://123456:ABC-def_9/987654/-1001234/@flats?silent=yes"])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(result.config?.channels["tg"]?.kind == .telegram)
  }

  /// What the registry says of a URL no kind takes, or one no kind may take as written.
  @Test(arguments: [
    (
      "prowl://apikey",
      "'prowl://' is not built into clarissa; Apprise knows it: write 'apprise://prowl://...'"
    ),
    ("zulip://bot@org/token", "write 'apprise://zulip://...'"),
    ("ntfi://x/y", "unknown channel type 'ntfi'; did you mean 'ntfy'?"),
    ("json://hooks.example.com/my hook", "a space in the URL must be percent-encoded (as '%20')"),
    ("tgram://123:ABC/1|2", "'|' in the URL must be percent-encoded (as '%7C')"),
  ])
  func aWrongURLSaysWhatToWrite(url: String, message: String) {
    let result = Self.load(["c": url])
    let text = result.diagnostics.map(\.message).joined(separator: "\n")
    #expect(text.contains(message), "\(text)")
    #expect(result.diagnostics.hasErrors)
  }

  @Test func aRefusedURLIsQuotedWithoutItsSecret() {
    let result = Self.load(["tg": "tgram://123456:TopSecret7/98 7654"])
    let shown = DiagnosticRenderer(sources: [
      "k.yaml": "notify:\n  tg: 'tgram://123456:TopSecret7/98 7654'\n"
    ])
    .render(result.diagnostics)
    #expect(shown.contains("a space in the URL must be percent-encoded"), "\(shown)")
    #expect(!shown.contains("TopSecret7"), "\(shown)")
  }
}

/// Each kind's own examples (``ChannelKind/examples``), run: a new kind's are run too.
@Suite struct ChannelExampleTests {
  static let examples = ChannelRegistry.all.flatMap { kind in
    kind.examples.map { (kind.kind.rawValue, $0) }
  }

  @Test func everyKindHasValidAndInvalidExamples() {
    for kind in ChannelRegistry.all {
      let valid = kind.examples.filter { if case .valid = $0 { true } else { false } }
      #expect(!valid.isEmpty && valid.count < kind.examples.count, "\(kind.kind)")
    }
  }

  @Test(arguments: examples.indices)
  func theExampleHoldsAsDeclared(index: Int) {
    let (name, example) = Self.examples[index]
    switch example {
    case .valid(let url, let redacted):
      let result = ChannelKindTests.load(["c": url])
      #expect(
        result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(url): \(result.diagnostics)"
      )
      #expect(result.config?.channels["c"]?.kind.rawValue == name, "\(url)")
      #expect(result.config?.channels["c"]?.redactedURL == redacted, "\(url)")
    case .invalid(let url, let message):
      let result = ChannelKindTests.load(["c": url])
      let said = result.diagnostics.map(\.message).joined(separator: "\n")
      #expect(result.diagnostics.hasErrors, "\(url)")
      #expect(said.contains(message), "\(url): \(said)")
    }
  }
}

/// docs/notifications.md names every kind's schemes and parameters, so a new kind or parameter
/// cannot go undocumented.
@Suite struct ChannelDocsTests {
  static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/notifications.md")

  @Test(arguments: ChannelRegistry.all.map(\.kind.rawValue))
  func theKindIsDocumented(name: String) throws {
    let text = try String(contentsOf: Self.docs, encoding: .utf8)
    let kind = try #require(ChannelRegistry.named(Channel.Kind(rawValue: name)))
    for scheme in kind.schemes {
      #expect(text.contains("`\(scheme)") || text.contains(" \(scheme)://"), "\(scheme)")
    }
    for parameter in kind.parameters {
      #expect(
        text.contains("`\(parameter.name)=") || text.contains("`\(parameter.name)`")
          || text.contains("?\(parameter.name)="), "\(name): \(parameter.name)")
    }
  }
}
