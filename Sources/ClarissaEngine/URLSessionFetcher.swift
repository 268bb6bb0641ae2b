import ClarissaCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Fetches with URLSession (libcurl on Linux): gzip and redirects as URLSession does them, no
/// cache (conditional GET is ours), an overall deadline enforced by cancelling the task (a body
/// that trickles in cannot hang a run), and a size cap checked as the body arrives.
public final class URLSessionFetcher: Fetcher, Sendable {
  private let limits: FetchLimits
  private let session: URLSession
  private let transfers: TransferDelegate

  /// Creates a fetcher held to `limits`.
  public init(limits: FetchLimits) {
    self.limits = limits
    transfers = TransferDelegate(limits: limits)
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    configuration.urlCredentialStorage = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
    configuration.httpMaximumConnectionsPerHost = 2
    configuration.timeoutIntervalForRequest = limits.timeout
    configuration.timeoutIntervalForResource = limits.timeout
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: queue)
  }

  /// The session keeps its delegate until it is invalidated: end it with the fetcher, or its
  /// connections and descriptors would outlive it.
  deinit { session.finishTasksAndInvalidate() }

  /// Ends the session once its tasks finish (a replaced config in `watch`).
  public func invalidate() {
    session.finishTasksAndInvalidate()
  }

  public func fetch(_ request: RequestSpec, headers: [String: String]) async -> Result<
    HTTPResponse, FetchError
  > {
    guard let url = URL(string: request.url), let scheme = url.scheme,
      scheme == "http" || scheme == "https"
    else {
      return .failure(FetchError(.network, "'\(request.url)' is not an http(s) URL"))
    }
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = request.method
    if let body = request.body { urlRequest.httpBody = Data(body) }
    for (name, value) in request.headers.merging(headers, uniquingKeysWith: { $1 }) {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    let task = session.dataTask(with: urlRequest)
    let transfer = TransferDelegate.Transfer()
    let transfers = self.transfers
    let timeout = limits.timeout
    let deadline = DispatchWorkItem {
      transfers.fail(
        task.taskIdentifier,
        FetchError(.timeout, "no complete answer within \(Self.seconds(timeout))"))
      task.cancel()
    }
    // Cancelling the run (watch stopping) cancels the transfer at once.
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        transfer.continuation = continuation
        transfers.register(transfer, for: task.taskIdentifier)
        DispatchQueue.global().asyncAfter(deadline: .now() + limits.timeout, execute: deadline)
        task.resume()
      }
    } onCancel: {
      transfers.fail(task.taskIdentifier, FetchError(.network, "cancelled: clarissa is stopping"))
      task.cancel()
    }
    deadline.cancel()
    return result
  }

  static func describe(_ error: Error) -> String {
    let nsError = error as NSError
    switch nsError.code {
    case NSURLErrorCannotConnectToHost: return "cannot connect (connection refused)"
    case NSURLErrorTimedOut: return "timed out"
    case NSURLErrorCannotFindHost: return "host not found"
    case NSURLErrorNetworkConnectionLost: return "the connection was lost"
    case NSURLErrorNotConnectedToInternet: return "no network"
    default: return nsError.localizedDescription.lowercased()
    }
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
  }
}

/// URLSession's delegate: collects each transfer's response and body, enforces the size cap as
/// chunks arrive, and resumes the waiting fetch when the transfer ends.
final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  final class Transfer {
    var response: HTTPURLResponse?
    var body: [UInt8] = []
    var failure: FetchError?
    var continuation: CheckedContinuation<Result<HTTPResponse, FetchError>, Never>?
  }

  private let limits: FetchLimits
  private let lock = NSLock()
  private var transfers: [Int: Transfer] = [:]

  init(limits: FetchLimits) {
    self.limits = limits
  }

  func register(_ transfer: Transfer, for identifier: Int) {
    lock.withLock { transfers[identifier] = transfer }
  }

  func fail(_ identifier: Int, _ error: FetchError) {
    lock.withLock {
      if let transfer = transfers[identifier], transfer.failure == nil { transfer.failure = error }
    }
  }

  // MARK: - URLSessionDataDelegate

  public func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    lock.withLock { transfers[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
    if let length = (response as? HTTPURLResponse)?.expectedContentLength, length > limits.maxBytes
    {
      fail(
        dataTask.taskIdentifier,
        FetchError(
          .tooLarge, "the answer announces \(length) bytes; the limit is \(limits.maxBytes)"))
      completionHandler(.cancel)
      return
    }
    completionHandler(.allow)
  }

  public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
  {
    var tooLarge = false
    lock.withLock {
      guard let transfer = transfers[dataTask.taskIdentifier] else { return }
      transfer.body.append(contentsOf: data)
      if transfer.body.count > limits.maxBytes, transfer.failure == nil {
        transfer.failure = FetchError(
          .tooLarge, "the answer is larger than \(limits.maxBytes) bytes")
        tooLarge = true
      }
    }
    if tooLarge { dataTask.cancel() }
  }

  public func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?
  ) {
    let transfer = lock.withLock { transfers.removeValue(forKey: task.taskIdentifier) }
    guard let transfer, let continuation = transfer.continuation else { return }
    if let failure = transfer.failure {
      continuation.resume(returning: .failure(failure))
    } else if let error {
      let timedOut = (error as NSError).code == NSURLErrorTimedOut
      let failure =
        timedOut
        ? FetchError(
          .timeout, "no complete answer within \(URLSessionFetcher.seconds(limits.timeout))")
        : FetchError(.network, URLSessionFetcher.describe(error))
      continuation.resume(returning: .failure(failure))
    } else if let response = transfer.response {
      var headers: [String: String] = [:]
      for (name, value) in response.allHeaderFields {
        if let name = name as? String, let value = value as? String {
          headers[name.lowercased()] = value
        }
      }
      continuation.resume(
        returning: .success(
          HTTPResponse(
            status: response.statusCode, headers: headers, body: transfer.body,
            finalURL: response.url?.absoluteString ?? task.originalRequest?.url?.absoluteString
              ?? "")))
    } else {
      continuation.resume(returning: .failure(FetchError(.network, "no response")))
    }
  }
}
