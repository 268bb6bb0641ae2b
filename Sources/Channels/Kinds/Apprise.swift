package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// Any Apprise URL, through the apprise command.
  package static let apprise = Channel.Kind(rawValue: "apprise")
}

/// `apprise://` followed by any Apprise URL, handed to the `apprise` command. Apprise's URLs
/// put tokens anywhere (user part, host, path, query), so all of those are hidden.
package struct AppriseKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.apprise
  package let schemes = ["apprise"]
  package let summary =
    "`apprise://` + any Apprise URL: sent by the apprise command (pip install apprise)"
  package let example = "apprise://pover://user@token"
  package let warnsOnUnknownParameters = false
  package let secrets: [ChannelSecret] = [.nested]

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard url.separator == "://", let inner = url.opaque, ChannelURL(inner) != nil else {
      return [
        .error(
          "write 'apprise://' followed by an Apprise URL, as in 'apprise://pover://user@token'")
      ]
    }
    return []
  }

  package func program(_ url: ChannelURL) -> String? { "apprise" }

  package let examples: [ChannelExample] = [
    .valid("apprise://tgram://123456:ABCdef/987654", redacted: "apprise://tgram://***/***"),
    .valid("apprise://pover://userkey@apptoken", redacted: "apprise://pover://***@***"),
    .valid(
      "apprise://gotifys://push.example.com/TOKEN?priority=high",
      redacted: "apprise://gotifys://push.example.com/***?priority=***"),
    .valid("apprise://mailto://me:pass@gmail.com", redacted: "apprise://mailto://***@gmail.com"),
    .invalid("apprise://nothing", message: "write 'apprise://' followed by an Apprise URL"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "apprise://tgram://123456:\(secret)/987654"
  }

  /// A scheme of one of Apprise's services is answered with `apprise://SCHEME://...`.
  package func hint(forUnclaimed url: ChannelURL) -> ChannelHint? {
    guard Self.services.contains(url.scheme) else { return nil }
    return .particular(
      "'\(url.scheme)://' is not built into clarissa; Apprise knows it: write "
        + "'apprise://\(url.scheme)://...' (needs the apprise command, pip install apprise)")
  }

  /// The schemes of Apprise's services (as of Apprise 1.9; those clarissa sends to itself are
  /// claimed by their kinds first).
  static let services: Set<String> = [
    "apprise", "apprises", "bark", "barks", "bluesky", "bulksms", "bulkvs", "burstsms",
    "clickatell", "clicksend", "d7sms", "dapnet", "dbus", "dingtalk", "emby", "embys", "enigma2",
    "enigma2s", "fcm", "feishu", "flock", "form", "forms", "gchat", "glib", "gnome", "gotify",
    "gotifys", "growl",
    "guilded", "hassio", "hassios", "httpsms", "ifttt", "join", "kde", "kodi", "kodis",
    "kumulos", "lametric", "lametrics", "line", "lunasea", "lunaseas", "macosx", "mailgun",
    "mailtos", "mastodon", "mastodons", "matrix", "matrixs", "misskey", "misskeys", "mmost",
    "mmosts", "mqtt",
    "mqtts", "msg91", "msteams", "nctalk", "nctalks", "ncloud", "nclouds", "nexmo", "notica",
    "notifiarr", "notifico", "office365", "onesignal", "opsgenie", "pagerduty", "pagertree",
    "parsep", "parseps", "pbul", "pjet", "pjets", "popcorn", "pover", "prowl", "psafer", "psafers",
    "pushed", "pushme", "pushplus", "pushy", "qq", "reddit", "resend", "revolt", "rocket",
    "rockets", "rsyslog", "ryver", "sendgrid", "serverchan", "ses", "seven", "signal",
    "signals", "simplepush", "sinch", "smseagle", "smseagles", "smtp2go", "sns", "sparkpost",
    "splunk", "spush", "streamlabs", "strmlabs", "synology", "synologys", "syslog", "techulus",
    "threema", "toot", "toots", "tweet", "twilio", "twist", "twitter", "victorops", "voipms",
    "vonage", "webex", "whatsapp", "windows", "wxpusher", "wxteams", "x", "xbmc", "xbmcs", "xml",
    "xmls", "zulip",
  ]
}

/// `apprise://<any Apprise URL>`: handed to the `apprise` command (`pip install apprise`).
struct AppriseChannel: DeliveryChannel {
  let channel: Channel
  let environment: [String: String]

  var name: String { channel.name }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    let target = String(channel.url.dropFirst("apprise://".count))
    guard let apprise = Program.locate("apprise", environment: environment) else {
      throw DeliveryError(
        "channel '\(name)': the apprise command is not installed (pip install apprise)")
    }
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      try await Program.run(
        apprise, ["-t", message.title, "-b", message.body, target], input: [],
        environment: environment,
        timeout: 60, channel: name,
        secrets: ChannelRedactor.secrets(in: channel.url, kind: channel.kind))
    }
  }
}

extension AppriseKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    AppriseChannel(channel: channel, environment: context.environment)
  }
}
