internal import ClarissaCore
internal import Curl
internal import Foundation
internal import Tracing

/// Posts messages over HTTP through the fetcher (the one door to the network); a 2xx answer is
/// acceptance, anything else a refusal that leaves the listings undelivered.
struct Poster: Sendable {
  let fetcher: any Fetcher
  let channel: String
  /// The channel's secrets: a service that echoes them (a token in the path it was sent to)
  /// has them masked before a word of its answer is kept.
  let secrets: [String]

  init(fetcher: any Fetcher, channel: Channel) {
    self.fetcher = fetcher
    self.channel = channel.name
    secrets = ChannelRedactor.secrets(in: channel.url, kind: channel.kind)
  }

  func post(_ url: String, body: [UInt8], headers: [String: String], key: String) async throws {
    let response = try await exchange(url, body: body, headers: headers, key: key)
    guard (200..<300).contains(response.status) else { throw refusal(response) }
  }

  /// Sends one request and returns the service's answer, whatever its status; a request that
  /// got no answer is a refusal.
  func exchange(
    _ url: String, method: String = "POST", body: [UInt8]?, headers: [String: String],
    key: String
  ) async throws -> HTTPResponse {
    var headers = headers
    if !key.isEmpty { headers["Idempotency-Key"] = key }
    // A channel's URL is the user's own choice, and a search's key cannot reach it: it goes
    // where it went before the redirect guard (which is for feeds' answers).
    let request = RequestSpec(
      url: url, headers: headers, mode: "notify", allowsConditionalGET: false, method: method,
      body: body, allowsPrivateRedirects: true)
    let answer = await fetcher.fetch(request, headers: [:])
    DeliveryTrace.note("resumed", key)
    switch answer {
    case .failure(let error):
      throw DeliveryError("channel '\(channel)': \(scrub(error.message))")
    case .success(var response):
      if !secrets.isEmpty, response.body.count <= 1 << 20 {
        response.body = Array(scrub(String(decoding: response.body, as: UTF8.self)).utf8)
      }
      return response
    }
  }

  private func scrub(_ text: String) -> String {
    secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: ChannelRedactor.mask) }
  }

  /// Sends one request like ``exchange(_:method:body:headers:key:)``; a `429` whose wait
  /// (`pause` reads it from the answer) fits, summed, in `maxWait` seconds is waited out and the
  /// request made again. The last answer is returned, whatever its status.
  func exchange(
    _ url: String, method: String = "POST", body: [UInt8]?, headers: [String: String],
    key: String, maxWait: Double, pause: (HTTPResponse) -> Double?
  ) async throws -> HTTPResponse {
    var waited = 0.0
    while true {
      let response = try await exchange(
        url, method: method, body: body, headers: headers, key: key)
      guard response.status == 429, let wait = pause(response), wait.isFinite, wait >= 0,
        waited + wait <= maxWait
      else { return response }
      waited += wait
      try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
    }
  }

  /// The refusal an answer that is not 2xx stands for: its status and the start of its body.
  func refusal(_ response: HTTPResponse) -> DeliveryError {
    let detail = Excerpt.oneLine(response.body.prefix(4096), droppingTags: true)
    return DeliveryError(
      "channel '\(channel)': HTTP \(response.status)" + (detail.isEmpty ? "" : " (\(detail))"),
      status: response.status)
  }
}

/// Renders `listings` of `search` into `channel`'s messages and sends each in turn (as
/// ``sendEach(_:_:_:)``); `send` gets the message and its own listings (one, or a digest's
/// all) as made safe to show (``ChannelText/deliverable(_:)``).
func sendMessages(
  _ listings: [Listing], search: Search, channel: Channel, _ receipt: DeliveryReceipt,
  _ send: (Message, [Listing]) async throws -> Void
) async throws {
  // What a site sent reaches a message only through the sanitiser (an older store may hold
  // what this version would not keep), and only web addresses as links and photos.
  let shown = listings.map(ChannelText.deliverable)
  try await sendEach(
    MessageTemplate.messages(for: shown, search: search, channel: channel), receipt, send)
}

/// Sends each message in turn, giving each accepted message's listings to `receipt` before the
/// next is sent: on a failure, what went through is already recorded. A message refused alone
/// (``DeliveryError/onlyThisMessage``: ntfy's 400 for one listing) does not stop the others;
/// the refusals are thrown at the end, in ``DeliveryError/refusedMessages``, with what stopped
/// the batch if something else did.
func sendEach(
  _ messages: [(message: Message, listings: [Listing])], _ receipt: DeliveryReceipt,
  _ send: (Message, [Listing]) async throws -> Void
) async throws {
  var refused: [RefusedMessage] = []
  for (message, listings) in messages {
    do {
      try await send(message, listings)
    } catch let error as DeliveryError where error.onlyThisMessage {
      refused.append(RefusedMessage(listings: listings, reason: error.message))
      continue
    } catch {
      guard !refused.isEmpty else { throw error }
      var stop = error as? DeliveryError ?? DeliveryError("\(error)")
      stop.refusedMessages = refused
      throw stop
    }
    try receipt(listings)
  }
  guard !refused.isEmpty else { return }
  var error = DeliveryError(refused.map(\.reason).joined(separator: "; "))
  error.refusedMessages = refused
  throw error
}

/// `+Name=value` query parameters (Apprise's form): headers to send with every message.
func headerParameters(_ components: URLComponents?) -> [String: String] {
  var headers: [String: String] = [:]
  for item in components?.queryItems ?? [] where item.name.hasPrefix("+") && item.name.count > 1 {
    headers[String(item.name.dropFirst())] = item.value ?? ""
  }
  return headers
}
