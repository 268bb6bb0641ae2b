internal import ClarissaCore
internal import SiteFormat

/// Craigslist's ways of saying "blocked" (a 403 status, or a page saying so), told apart from
/// "no results" so that a blocked client backs off instead of reporting nothing new.
enum BlockPage {
  private static let phrases = [
    "your request has been blocked", "this ip has been automatically blocked",
    "blocked by craigslist", "access denied",
  ]

  static func check(_ response: SourceResponse) throws {
    if response.status == 403 || response.status == 429 {
      throw SiteError(
        "Craigslist refused the request (HTTP \(response.status)): this address is blocked or rate-limited",
        isBlock: true)
    }
    let head = String(decoding: response.body.prefix(4096), as: UTF8.self).lowercased()
    if let phrase = phrases.first(where: { head.contains($0) }), !head.hasPrefix("{") {
      throw SiteError("Craigslist answered with a block page (\"\(phrase)\")", isBlock: true)
    }
    if response.status >= 400 {
      throw SiteError(
        "Craigslist answered HTTP \(response.status) (\(AnswerSnippet.of(response.body)))")
    }
  }
}
