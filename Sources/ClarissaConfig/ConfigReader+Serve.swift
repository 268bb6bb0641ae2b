internal import ClarissaCore
internal import Foundation
internal import YAML

/// `serve:`: `url` (where a phone reaches the web interface: the notifications' buttons call
/// it), `address` and `token_file` (what `clarissa serve` takes when its flags are not given),
/// `key_file` (the action key), `action_expiry` (how long a button works) and `edit` (whether
/// the page may edit the searches).
extension ConfigReader {
  static let serveKeys = [
    "url", "address", "token_file", "key_file", "action_expiry", "edit",
  ]

  func readServe(_ node: Node) -> ServeSettings? {
    if node.isNull { return nil }
    guard let table = table(node, "'serve'") else { return nil }
    checkKeys(table, allowed: Self.serveKeys, in: "'serve'")
    var settings = ServeSettings()
    if let value = table["url"] { settings.url = serveURL(value) }
    if let value = table["address"] { settings.address = expandedString(value, "'serve.address'") }
    if let value = table["token_file"] {
      settings.tokenFile = expandedString(value, "'serve.token_file'")
    }
    if let value = table["key_file"] {
      settings.keyFile = expandedString(value, "'serve.key_file'")
    }
    if let value = table["action_expiry"],
      let expiry = interval(value, "'serve.action_expiry'")
    {
      if expiry > .days(366) {
        error("'serve.action_expiry' \(expiry) is longer than a year (366d)", at: value)
      } else {
        settings.actionExpiry = expiry
      }
    }
    if let value = table["edit"], let edit = bool(value, "'serve.edit'") { settings.edit = edit }
    return settings
  }

  /// An `http(s)://host[:port][/path]` address without a user, query or fragment, in
  /// ASCII (a button's URL goes into an HTTP header), and without `,`, `;` or quotes (ntfy's
  /// actions header separates with them).
  private func serveURL(_ node: Node) -> String? {
    guard let url = expandedString(node, "'serve.url'") else { return nil }
    let problem: String?
    let components = URLComponents(string: url)
    if let bad = url.unicodeScalars.first(where: {
      !$0.isASCII || $0.value <= 0x20 || $0.value == 0x7F || ",;\"'`\\".unicodeScalars.contains($0)
    }) {
      problem = "may not hold '\(bad.escaped(asASCII: true))' (write a name in punycode)"
    } else if let components,
      !["http", "https"].contains(components.scheme?.lowercased() ?? "")
    {
      problem = "must begin with https:// (or http://)"
    } else if components == nil || (components?.host ?? "").isEmpty {
      problem = "needs a host, as in 'https://flats.example.net' or 'http://192.168.1.20:8421'"
    } else if components?.user != nil || components?.password != nil {
      problem =
        "may not carry a user or password: the buttons need no login (their links are signed)"
    } else if components?.query != nil || components?.fragment != nil {
      problem = "may not have a query (?) or fragment (#): buttons add '/act/TOKEN' to it"
    } else {
      problem = nil
    }
    if let problem {
      error("'serve.url' \(problem) (found '\(url)')", at: node)
      return nil
    }
    return url
  }
}
