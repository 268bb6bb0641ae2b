internal import ActionKeys
internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import WebServer

/// `/act/TOKEN`: what a notification's Viewed, Hide and Star buttons call. The signed token is
/// the authorization (no session, no access token, no form token): `POST` does the action
/// (ntfy's `http` actions), `GET` only shows a page with a button that POSTs (a link preview or
/// a prefetch must change nothing). Forged, changed, cut and expired tokens are refused; a POST
/// from another site's page is refused; a token does its action once (``UsedActions``): used
/// again, it changes nothing, even after the person undid the mark.
extension WebApp {
  func act(_ request: WebRequest, _ path: [String]) throws -> WebResponse {
    guard path.count == 2 else { throw RequestProblem(404, "nothing at \(request.path)") }
    guard request.method == "GET" || request.method == "POST" else {
      throw RequestProblem(405, "\(request.method) is not allowed here")
    }
    guard let actionKey = access.actionKey else {
      throw RequestProblem(
        404, "this server signs no action links: set serve.url in the config (docs/serve.md)")
    }
    if request.method == "POST" { try refuseOtherSites(request) }
    let text = path[1]
    let token: ActionToken
    switch ActionToken.verify(text, key: actionKey, now: clock()) {
    case .success(let verified): token = verified
    case .failure(let problem):
      if problem == .forged {
        // Only forged tokens are slowed: a real button is never refused for them.
        if let wait = guesses.wait(request.client) {
          guesses.failed(request.client)
          return Self.tooManyGuesses(wait, json: false)
        }
        guesses.failed(request.client)
      }
      throw RequestProblem(Self.status(problem), problem.description)
    }
    return try answer(request, token, text: text)
  }

  /// What a verified token (`text`) is answered: GET, the page asking; POST, the action done
  /// (once: used again, the page saying so).
  private func answer(_ request: WebRequest, _ token: ActionToken, text: String) throws
    -> WebResponse
  {
    let key = ListingKey(site: token.site, id: token.id)
    guard let history = try store.history(key) else {
      throw RequestProblem(404, "no listing \(key.site):\(key.id) in the store (forgotten?)")
    }
    let title = history.listing.title
    if request.method == "GET" {
      if let at = usedActions.usedAt(text) { return Pages.actionUsed(token, title: title, at: at) }
      return Pages.confirmAction(token, title: title, path: "/act/\(text)")
    }
    let now = clock()
    guard usedActions.use(text, expires: token.expires, now: now) else {
      return Pages.actionUsed(token, title: title, at: usedActions.usedAt(text) ?? now)
    }
    do {
      _ = try store.apply(token.action, to: key, at: now)
    } catch {
      usedActions.forget(text)
      throw error
    }
    return Pages.actionDone(token, title: title)
  }

  /// 400 for what is not a token, 403 for a bad signature, 410 for an expired one.
  static func status(_ problem: ActionToken.Problem) -> Int {
    switch problem {
    case .malformed: 400
    case .forged: 403
    case .expired: 410
    }
  }
}

extension Pages {
  /// The page a `GET /act/TOKEN` shows: what the button will do, and the button (a POST).
  static func confirmAction(_ token: ActionToken, title: String, path: String) -> WebResponse {
    let label = token.action.label
    return layout(
      label, csrf: nil,
      """
      <h1>\(label): \(title)</h1>
      <form method="post" action="\(path)" class="act">\
      <button id="act-confirm">\(label)</button></form>
      <p class="note">This link from a notification works until \
      \(MarkupText.timestamp(token.expires)).</p>
      """)
  }

  /// The answer to a token used before: nothing is done again (the person may have undone it
  /// since).
  static func actionUsed(_ token: ActionToken, title: String, at: Date) -> WebResponse {
    let key = ListingKey(site: token.site, id: token.id)
    return layout(
      "Already done", csrf: nil,
      """
      <h1 id="act-used">Already done: \(token.action.label), \(title)</h1>
      <p>This button was used at \(MarkupText.timestamp(at)); it does nothing more. \
      Change the marks on the listing's page.</p>
      <p><a id="act-listing" href="\(listingPath(key))">The listing</a></p>
      """)
  }

  /// The answer to `POST /act/TOKEN`.
  static func actionDone(_ token: ActionToken, title: String) -> WebResponse {
    let key = ListingKey(site: token.site, id: token.id)
    return layout(
      token.action.done, csrf: nil,
      """
      <h1 id="act-done">\(token.action.done): \(title)</h1>
      <p><a id="act-listing" href="\(listingPath(key))">The listing</a></p>
      """)
  }
}
