import ClarissaCore
import Foundation

/// Checks an Apprise-style channel URL and tells its kind, or what is wrong with it.
enum ChannelAddress {
  /// The schemes a channel URL may start with, for "did you mean".
  static let schemes = [
    "stdout", "ntfy", "ntfys", "json", "jsons", "slack", "discord", "mailto", "smtp", "smtps",
    "exec", "apprise",
  ]

  private static let ntfyPriorities = [
    "1", "2", "3", "4", "5", "min", "low", "default", "high", "max", "urgent",
  ]

  /// The kind of channel `url` is, or a message saying why it cannot be one.
  static func check(_ url: String) -> Result<Channel.Kind, ChannelProblem> {
    if url == "stdout" || url == "stdout://" { return .success(.stdout) }
    if url.hasPrefix("exec:") { return checkExec(url) }
    guard let colon = url.firstIndex(of: ":") else {
      return .failure(
        ChannelProblem(
          "'\(url)' is not a channel URL; write e.g. 'ntfy://ntfy.sh/my-topic' or 'stdout'"))
    }
    let scheme = url[..<colon].lowercased()
    if scheme == "mailto" { return checkMail(url) }
    guard let components = URLComponents(string: url), components.scheme != nil else {
      return .failure(
        ChannelProblem(
          "'\(url)' is not a valid URL (spaces and other special characters must be percent-encoded)"
        ))
    }
    switch scheme {
    case "ntfy", "ntfys": return checkNtfy(components)
    case "json", "jsons":
      return requireHost(components, .json, example: "json://localhost:8080/hook")
    case "slack":
      return checkTokens(components, .slack, count: 3, example: "slack://TokenA/TokenB/TokenC")
    case "discord":
      return checkTokens(
        components, .discord, count: 2, example: "discord://webhook_id/webhook_token")
    case "smtp", "smtps": return checkSMTP(components)
    case "apprise": return checkApprise(url)
    case "http", "https": return checkWebURL(components)
    default:
      let hint = Suggestions.hint(for: String(scheme), in: schemes)
      return .failure(
        ChannelProblem(
          "unknown channel type '\(scheme)'\(hint) (supported: \(schemes.joined(separator: ", ")))")
      )
    }
  }

  private static func checkExec(_ url: String) -> Result<Channel.Kind, ChannelProblem> {
    let command = url.dropFirst("exec:".count).trimmingCharacters(in: .whitespaces)
    guard !command.isEmpty else {
      return .failure(
        ChannelProblem("'exec:' needs a command, as in 'exec:/usr/local/bin/on-listing'"))
    }
    return .success(.exec)
  }

  private static func checkMail(_ url: String) -> Result<Channel.Kind, ChannelProblem> {
    var address = String(url.dropFirst("mailto:".count))
    if address.hasPrefix("//") { address.removeFirst(2) }
    if let query = address.firstIndex(of: "?") { address = String(address[..<query]) }
    let recipients = address.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard !recipients.isEmpty else {
      return .failure(ChannelProblem("'mailto:' needs an address, as in 'mailto://me@example.com'"))
    }
    for recipient in recipients where !isMailAddress(recipient) {
      return .failure(ChannelProblem("'\(recipient)' is not a mail address"))
    }
    return .success(.mailto)
  }

  static func isMailAddress(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
      !parts[1].hasPrefix("."), !parts[1].hasSuffix(".")
    else { return false }
    return !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" })
  }

  private static func checkNtfy(_ url: URLComponents) -> Result<Channel.Kind, ChannelProblem> {
    let segments = url.path.split(separator: "/")
    // `ntfy://topic` means the topic on ntfy.sh, as in Apprise.
    let topic = segments.last.map(String.init) ?? url.host ?? ""
    guard !topic.isEmpty, segments.count <= 1 else {
      return .failure(
        ChannelProblem("an ntfy URL names one topic: 'ntfy://host/topic' or 'ntfy://topic'"))
    }
    guard topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else {
      return .failure(
        ChannelProblem("ntfy topic '\(topic)' may hold only letters, digits, '-' and '_'"))
    }
    for item in url.queryItems ?? [] where item.name == "priority" {
      guard let value = item.value, ntfyPriorities.contains(value) else {
        return .failure(
          ChannelProblem(
            "ntfy priority '\(item.value ?? "")' is not one of \(ntfyPriorities.joined(separator: ", "))"
          ))
      }
    }
    return .success(.ntfy)
  }

  private static func requireHost(
    _ url: URLComponents, _ kind: Channel.Kind, example: String
  ) -> Result<Channel.Kind, ChannelProblem> {
    guard let host = url.host, !host.isEmpty else {
      return .failure(ChannelProblem("the URL has no host; write e.g. '\(example)'"))
    }
    return .success(kind)
  }

  private static func checkTokens(
    _ url: URLComponents, _ kind: Channel.Kind, count: Int, example: String
  ) -> Result<Channel.Kind, ChannelProblem> {
    let parts = ([url.host ?? ""] + url.path.split(separator: "/").map(String.init)).filter {
      !$0.isEmpty
    }
    let tokens = parts.filter { !$0.hasPrefix("#") && !$0.hasPrefix("@") }
    guard tokens.count >= count else {
      return .failure(
        ChannelProblem("a \(kind.rawValue) URL needs \(count) tokens, as in '\(example)'"))
    }
    return .success(kind)
  }

  private static func checkSMTP(_ url: URLComponents) -> Result<Channel.Kind, ChannelProblem> {
    let example = "smtp://me%40example.com:${SMTP_PASSWORD}@mail.example.com:587?to=me@example.com"
    if case .failure(let problem) = requireHost(url, .smtp, example: example) {
      return .failure(problem)
    }
    let query = url.queryItems ?? []
    guard let to = query.first(where: { $0.name == "to" })?.value, !to.isEmpty else {
      return .failure(ChannelProblem("an SMTP URL needs a recipient: add '?to=me@example.com'"))
    }
    for address in to.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !isMailAddress(address) {
      return .failure(ChannelProblem("'\(address)' in 'to=' is not a mail address"))
    }
    if let from = query.first(where: { $0.name == "from" })?.value, !isMailAddress(from) {
      return .failure(ChannelProblem("'\(from)' in 'from=' is not a mail address"))
    }
    if let tls = query.first(where: { $0.name == "tls" }) {
      guard tls.value == "none" || tls.value == "starttls" else {
        return .failure(
          ChannelProblem(
            "'tls=\(tls.value ?? "")' is not 'starttls' (the default) or 'none' (a relay on this machine)"
          ))
      }
      if url.scheme?.lowercased() == "smtps" {
        return .failure(
          ChannelProblem("'smtps://' is TLS from the start; 'tls=' belongs to 'smtp://' only"))
      }
    }
    return .success(.smtp)
  }

  private static func checkApprise(_ url: String) -> Result<Channel.Kind, ChannelProblem> {
    let rest = url.dropFirst("apprise://".count)
    guard url.hasPrefix("apprise://"), rest.contains("://") || rest.contains(":") else {
      return .failure(
        ChannelProblem(
          "write 'apprise://' followed by an Apprise URL, as in 'apprise://tgram://bottoken/ChatID'"
        ))
    }
    return .success(.apprise)
  }

  /// Plain web URLs are accepted for Slack's and Discord's own webhook addresses only.
  private static func checkWebURL(_ url: URLComponents) -> Result<Channel.Kind, ChannelProblem> {
    let host = url.host ?? ""
    if host == "hooks.slack.com" { return .success(.slack) }
    if host.hasSuffix("discord.com") || host.hasSuffix("discordapp.com"),
      url.path.hasPrefix("/api/webhooks/")
    {
      return .success(.discord)
    }
    let secure = url.scheme == "https" ? "jsons" : "json"
    // ntfy's own server, or one named for it, is a topic URL: `https://ntfy.sh/topic`.
    if host == "ntfy.sh" || host.split(separator: ".").contains(where: { $0.hasPrefix("ntfy") }) {
      let ntfy = url.scheme == "https" ? "ntfys" : "ntfy"
      return .failure(
        ChannelProblem(
          "a plain web URL does not say how to post; for this ntfy topic write '\(ntfy)://\(host)\(url.port.map { ":\($0)" } ?? "")\(url.path)'"
        ))
    }
    return .failure(
      ChannelProblem(
        "a plain web URL does not say how to post; for a JSON webhook write '\(secure)://\(host)\(url.path)'"
      ))
  }
}

/// Why a channel URL cannot be used.
struct ChannelProblem: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
