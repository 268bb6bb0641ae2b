internal import ClarissaCore
internal import Foundation

/// Why a routing engine gave no travel times for a request, and what the client does next.
struct RoutingFailure: Error, Sendable, Equatable {
  /// Who a failure is held against.
  enum Blame: Sendable, Equatable {
    /// The request's positions: the engine could not route them (OSRM's `NoTable`,
    /// `NoSegment`). Those positions stay unasked in this run; the others are asked.
    case positions
    /// The engine: a 5xx, no answer, or an answer not understood. The request's positions
    /// stay unasked; ``RoutingClient/failuresToPause`` in a row pause the engine for the run.
    case service
    /// The client: the engine refuses us (401, 403, 407, 429), or says no request of ours can
    /// be served (a bad URL, a service or version it lacks, options it rejects). The engine
    /// is not asked again in the run.
    case client
    /// The request asked for too many positions at once (OSRM's `TooBig`, MOTIS's 422): the
    /// client asks again with half as many.
    case tooBig
  }

  /// What happened, naming the engine's own words where it gave them (cleaned, cut).
  let why: String
  /// Who it is held against.
  let blame: Blame
  /// OSRM's `NoSegment`: the index of the coordinate that could not be placed on the network
  /// ("Could not find a matching segment for coordinate 3"), when the message names it.
  var unplaced: Int?

  init(_ why: String, _ blame: Blame = .service, unplaced: Int? = nil) {
    self.why = why
    self.blame = blame
    self.unplaced = unplaced
  }

  /// Who an HTTP status other than 200 (and OSRM's 400) blames.
  static func blame(status: Int) -> Blame {
    switch status {
    case 401, 403, 407, 429: .client
    default: .service
    }
  }

  /// An engine's message as a note may show it: one line, control characters removed, at
  /// most 160 characters.
  static func words(_ text: String) -> String {
    let line = SafeText.line(text)
    return SafeText.cut(line, to: 160) ?? line
  }
}

/// Numbers from an engine's JSON, read without traps: a JSON number (never a boolean), finite,
/// within `0...limit`.
enum EngineNumber {
  /// The longest travel time believed, in seconds: two days. An engine answering more for a
  /// journey to work is broken, and its answer is not used.
  static let maxSeconds = 2.0 * 86_400

  /// `value` as seconds when it is a JSON number within `0...maxSeconds`; nil otherwise.
  static func seconds(_ value: Any) -> Double? {
    guard let number = value as? NSNumber,
      String(cString: number.objCType) != "c"
    else { return nil }
    let seconds = number.doubleValue
    guard seconds.isFinite, seconds >= 0, seconds <= maxSeconds else { return nil }
    return seconds
  }

  /// `value` in degrees with six decimals (about 0.1 m), without Foundation's locale:
  /// `13.405000`, `-0.127500`. `value` must be finite and within ±180.
  static func degrees(_ value: Double) -> String {
    let scaled = Int((abs(value) * 1_000_000).rounded())
    var fraction = String(scaled % 1_000_000)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    return "\(value < 0 && scaled != 0 ? "-" : "")\(scaled / 1_000_000).\(fraction)"
  }

  /// The engine's base URL without a trailing `/`; nil unless it is `http` or `https` with a
  /// host, and holds no query or fragment.
  static func base(_ url: String) -> String? {
    guard let components = URLComponents(string: url),
      ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
      !(components.host ?? "").isEmpty, components.query == nil, components.fragment == nil
    else { return nil }
    var base = url
    while base.hasSuffix("/") { base.removeLast() }
    return base
  }
}
