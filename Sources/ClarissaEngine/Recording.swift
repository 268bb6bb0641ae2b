public import ClarissaCore
public import Curl
internal import Foundation

/// A folder of recorded responses: `index.json` lists each URL with its status, headers and the
/// file holding its body. Written by `run --record DIR`, read by `run --replay DIR`; URLs are
/// stored as the site wrote them, so `${SECRET}` references stay references.
public struct RecordingIndex: Codable, Sendable {
  /// One recorded exchange.
  public struct Entry: Codable, Sendable {
    /// The request URL.
    public var url: String
    /// The HTTP status.
    public var status: Int
    /// Response headers worth keeping (content type, validators).
    public var headers: [String: String]
    /// The body's file name inside the folder.
    public var file: String
    /// The final URL after redirects, when it differs.
    public var finalURL: String?
  }

  /// Every recorded exchange.
  public var entries: [Entry]

  static func load(from folder: String) throws -> RecordingIndex {
    let path = (folder as NSString).appendingPathComponent("index.json")
    guard let data = FileManager.default.contents(atPath: path) else {
      throw FetchError(.notRecorded, "no recording at '\(path)'")
    }
    do {
      return try JSONDecoder().decode(RecordingIndex.self, from: data)
    } catch {
      throw FetchError(.notRecorded, "'\(path)' is not a recording index: \(error)")
    }
  }

  static func save(_ index: RecordingIndex, to folder: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(index)
    try data.write(
      to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("index.json")))
  }
}

/// Answers requests from a recording; a request that was not recorded is an error naming its URL.
public struct ReplayFetcher: Fetcher {
  private let folder: String
  private let entries: [String: RecordingIndex.Entry]

  /// Loads the recording in `folder`.
  public init(folder: String) throws {
    self.folder = folder
    let index = try RecordingIndex.load(from: folder)
    entries = Dictionary(index.entries.map { ($0.url, $0) }, uniquingKeysWith: { _, last in last })
  }

  public func fetch(_ request: RequestSpec, headers: [String: String]) async -> Result<
    HTTPResponse, FetchError
  > {
    guard let entry = entries[request.url] else {
      return .failure(
        FetchError(.notRecorded, "no recorded response for \(request.url) in '\(folder)'"))
    }
    let path = (folder as NSString).appendingPathComponent(entry.file)
    guard let body = FileManager.default.contents(atPath: path) else {
      return .failure(
        FetchError(
          .notRecorded, "the recording of \(request.url) names '\(entry.file)', which is missing"))
    }
    if let etag = entry.headers["etag"], headers["If-None-Match"] == etag {
      return .success(
        HTTPResponse(status: 304, headers: entry.headers, body: [], finalURL: request.url))
    }
    return .success(
      HTTPResponse(
        status: entry.status, headers: entry.headers, body: Array(body),
        finalURL: entry.finalURL ?? request.url))
  }
}

/// Fetches for real and saves every answer into a recording folder.
public actor RecordingFetcher: Fetcher {
  private let inner: any Fetcher
  private let folder: String
  private var index = RecordingIndex(entries: [])

  /// Records what `inner` fetches into `folder` (created if needed).
  public init(wrapping inner: any Fetcher, folder: String) throws {
    self.inner = inner
    self.folder = folder
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    if let existing = try? RecordingIndex.load(from: folder) { index = existing }
  }

  public func fetch(_ request: RequestSpec, headers: [String: String]) async -> Result<
    HTTPResponse, FetchError
  > {
    // Unconditional, always: a 304 has no body to record, and a recording missing an answer
    // cannot be replayed. The run gets the whole answer, which it reads as it would a changed one.
    let unconditional = headers.filter {
      !["if-none-match", "if-modified-since"].contains($0.key.lowercased())
    }
    let result = await inner.fetch(request, headers: unconditional)
    if case .success(let response) = result, response.status != 304 {
      record(request.url, response)
    }
    return result
  }

  private func record(_ url: String, _ response: HTTPResponse) {
    let file = Self.fileName(for: url)
    _ = FileManager.default.createFile(
      atPath: (folder as NSString).appendingPathComponent(file), contents: Data(response.body))
    let kept = response.headers.filter {
      ["content-type", "etag", "last-modified", "retry-after"].contains($0.key)
    }
    index.entries.removeAll { $0.url == url }
    index.entries.append(
      RecordingIndex.Entry(
        url: url, status: response.status, headers: kept, file: file,
        finalURL: response.finalURL == url ? nil : response.finalURL))
    try? RecordingIndex.save(index, to: folder)
  }

  /// `sapi.craigslist.org-web-v8-...-9f3a2c1b.body`: readable, and unique by a hash of the URL.
  static func fileName(for url: String) -> String {
    let readable = url.replacingOccurrences(of: "https://", with: "").replacingOccurrences(
      of: "http://", with: ""
    )
    .map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "-" }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(String(readable).prefix(60)) + "-" + String(hash, radix: 16) + ".body"
  }
}

/// A replay that still asks the user's own services: the sites' answers come from the
/// recording, and a request of the geocoder or a routing engine (`RequestSpec.mode` `geocode`,
/// `routing`) that the recording does not hold goes to `live`. `--replay` replays the sites;
/// the services `geocoder:` and `routing:` name are the user's setup and are asked as the
/// config says (neither is set by default, so the bundled replay stays offline).
public struct ReplayWithServices: Fetcher {
  /// The request modes of the user's services.
  public static let serviceModes: Set<String> = ["geocode", "routing"]

  let replay: ReplayFetcher
  let live: any Fetcher

  /// A replay of `replay`, asking `live` for the services' requests it lacks.
  public init(_ replay: ReplayFetcher, live: any Fetcher) {
    self.replay = replay
    self.live = live
  }

  public func fetch(_ request: RequestSpec, headers: [String: String]) async -> Result<
    HTTPResponse, FetchError
  > {
    let recorded = await replay.fetch(request, headers: headers)
    guard case .failure(let error) = recorded, error.kind == .notRecorded,
      Self.serviceModes.contains(request.mode)
    else { return recorded }
    return await live.fetch(request, headers: headers)
  }
}
