extension Channel.Kind {
  /// Pushover.
  public static let pushover = Channel.Kind(rawValue: "pushover")
}

/// `pover://USER_KEY@APP_TOKEN[/DEVICE...]`, Apprise's syntax: Pushover's `messages.json`.
public struct PushoverKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.pushover
  public let schemes = ["pover"]
  public let summary = "`pover://USER_KEY@APP_TOKEN[/DEVICE...]`: Pushover"
  public let example = "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi"
  public let parameters = [
    ChannelParameter("priority", "-2 to 2, or lowest, low, normal, high (emergency is not sent)"),
    ChannelParameter("sound", "one of Pushover's sounds, e.g. 'pushover' or 'none'"),
    ChannelParameter("to", "more devices, comma-separated"),
    ChannelParameter("api", "the API's address (default https://api.pushover.net)"),
    ChannelParameter("format", "Apprise's; clarissa always sends HTML"),
  ]
  public let secrets: [ChannelSecret] = [.userinfo, .host]

  public static let priorities = [
    "-2": "-2", "-1": "-1", "0": "0", "1": "1",
    "lowest": "-2", "low": "-1", "normal": "0", "high": "1",
  ]

  /// Pushover's keys: 30 letters and digits.
  public static func isKey(_ text: String) -> Bool {
    text.count == 30 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
  }

  /// The devices: the path's segments and `to=`.
  public static func devices(_ url: ChannelURL) -> [String] {
    let extra = (url.value("to") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    return (url.segments.map(ChannelURL.decoded) + extra).filter { !$0.isEmpty }
  }

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    let user = ChannelURL.decoded(url.userinfo ?? "")
    let token = ChannelURL.decoded(url.host)
    guard Self.isKey(user), Self.isKey(token) else {
      return [
        .error(
          "a pover URL is 'pover://USER_KEY@APP_TOKEN', each 30 letters and digits, as in "
            + "'\(example)'")
      ]
    }
    if let priority = url.value("priority"), Self.priorities[priority] == nil {
      return [
        .error(
          "pushover priority '\(priority)' is not one of -2, -1, 0, 1, lowest, low, normal, high",
          at: "priority=")
      ]
    }
    for device in Self.devices(url)
    where device.count > 25
      || !device.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-".contains($0)) })
    {
      return [.error("'\(device)' is not a Pushover device name (25 letters, digits, '_' or '-')")]
    }
    if let api = url.value("api"), !(api.hasPrefix("http://") || api.hasPrefix("https://")) {
      return [.error("'api=\(api)' is not an http:// or https:// address", at: "api=")]
    }
    return []
  }

  public let examples: [ChannelExample] = [
    .valid(
      "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi/phone",
      redacted: "pover://***@***/phone"),
    .invalid("pover://user@token", message: "a pover URL is 'pover://USER_KEY@APP_TOKEN'"),
    .invalid(
      "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi?priority=2",
      message: "pushover priority '2' is not one of"),
  ]

  public func sample(secret: String, host: String) -> String? {
    let key = String((secret + String(repeating: "k", count: 30)).prefix(30))
    let token = String((secret + String(repeating: "t", count: 30)).prefix(30))
    return "pover://\(key)@\(token)?api=http://\(host)"
  }
}
