import ClarissaConfig
import ClarissaCore
import Foundation
import Sites
import Testing

/// Every kind of ``ChannelKinds/all`` by its own declaration: its sample URL is valid, of its
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
      sites: Registry.sites)
  }

  static let kinds = ChannelKinds.all.map(\.kind.rawValue)

  @Test(arguments: kinds) func theSampleIsValidAndRedacted(name: String) throws {
    let kind = try #require(ChannelKinds.named(Channel.Kind(rawValue: name)))
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
    let schemes = ChannelKinds.schemes
    #expect(Set(schemes).count == schemes.count, "\(schemes)")
    #expect(ChannelKinds.all.map(\.kind.rawValue) == ChannelKinds.all.map(\.kind.rawValue).sorted())
  }

  @Test(arguments: [
    ("apprise://tgram://123456:SECRET/987654", "apprise://tgram://***/***"),
    ("apprise://pover://USERKEY@TOKENKEY", "apprise://pover://***@***"),
    (
      "apprise://gotifys://push.example.com/SECRET?priority=high",
      "apprise://gotifys://push.example.com/***?priority=***"
    ),
    ("apprise://mailto://me:SECRET@gmail.com", "apprise://mailto://***@gmail.com"),
    ("tgram://123456:SECRET/987654", "tgram://***/987654"),
    ("ntfys://tk_SECRET@ntfy.sh/deals?+X-Trace=SECRET", "ntfys://***@ntfy.sh/deals?+X-Trace=***"),
    ("exec:/usr/bin/notify --token SECRET", "exec:/usr/bin/notify ***"),
    ("slack://SECRET/B/C", "slack://***/***"),
    ("https://hooks.slack.com/services/SECRET/B/C", "https://hooks.slack.com/***"),
    (
      "smtps://me%40x.com:SECRET@mail.x.com:465?to=me@x.com",
      "smtps://***@mail.x.com:465?to=me@x.com"
    ),
  ])
  func theRedactedFormHidesWhatTheKindDeclares(url: String, redacted: String) throws {
    let kind = try ChannelKinds.kind(for: url).get()
    #expect(ChannelRedactor.redact(url, kind: kind.kind) == redacted)
    #expect(!ChannelRedactor.redact(url, kind: kind.kind).contains("SECRET"))
  }

  @Test func aTelegramTokenWithItsColonIsAURL() {
    let result = Self.load(["tg": "tgram://123456:ABC-def_9/987654/-1001234/@flats?silent=yes"])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(result.config?.channels["tg"]?.kind == .telegram)
  }

  @Test(arguments: [
    ("tgram://nodigits/987654", "a Telegram bot token is 'digits:letters'"),
    ("tgram://123456:ABC", "a tgram URL needs a chat after the token"),
    ("tgram://123456:ABC/chat", "'chat' is not a Telegram chat"),
    ("tgram://123456:ABC/1?api=ftp://x", "'api=ftp://x' is not an http:// or https:// address"),
    (
      "prowl://apikey",
      "'prowl://' is not built into clarissa; Apprise knows it: write 'apprise://prowl://...'"
    ),
    ("pover://user@token", "a pover URL is 'pover://USER_KEY@APP_TOKEN', each 30 letters"),
    ("gotify://push.example.com", "a gotify URL is 'gotify://host/APP_TOKEN'"),
    ("gotify://push.example.com/tok?priority=loud", "gotify priority 'loud' is not 0-10"),
    ("matrixs://tok@matrix.example.org/flats", "'flats' is not a Matrix room"),
    (
      "matrixs://matrix.example.org/!r:example.org",
      "a matrix URL is 'matrixs://ACCESS_TOKEN@host/ROOM'"
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
