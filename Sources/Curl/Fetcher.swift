public import ClarissaCore

/// The only door to the network: makes one request. Implementations: ``CurlFetcher`` (real,
/// libcurl), and the engine's `ReplayFetcher` (recorded responses) and `RecordingFetcher` (real,
/// saving what it gets).
public protocol Fetcher: Sendable {
  /// Makes `request` with the extra `headers` (User-Agent, conditional GET).
  func fetch(_ request: RequestSpec, headers: [String: String]) async -> Result<
    HTTPResponse, FetchError
  >
}

/// A complete response.
public struct HTTPResponse: Sendable {
  /// HTTP status.
  public var status: Int
  /// Headers, names lower case.
  public var headers: [String: String]
  /// The body, decompressed.
  public var body: [UInt8]
  /// The URL after redirects.
  public var finalURL: String

  /// Creates a response.
  public init(status: Int, headers: [String: String] = [:], body: [UInt8], finalURL: String) {
    self.status = status
    self.headers = headers
    self.body = body
    self.finalURL = finalURL
  }
}

/// Why a request produced no response.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure.
  public enum Kind: String, Sendable {
    case timeout, tooLarge, network, notRecorded
  }

  /// The kind of failure.
  public var kind: Kind
  /// What happened, lower case.
  public var message: String

  /// Creates an error.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}

/// Limits every fetch is held to.
public struct FetchLimits: Sendable {
  /// Whole-request deadline, body included, in seconds.
  public var timeout: Double
  /// Largest body accepted, in bytes.
  public var maxBytes: Int

  /// Creates limits.
  public init(timeout: Double, maxBytes: Int) {
    self.timeout = timeout
    self.maxBytes = maxBytes
  }
}
