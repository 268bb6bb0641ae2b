internal import Foundation

/// The start of an answer's body, for messages about an answer that could not be read.
package enum AnswerSnippet {
  /// `starts with '<html><head>…'` (80 bytes, line breaks as spaces), or `empty body`.
  package static func of(_ body: [UInt8]) -> String {
    let text = String(decoding: body.prefix(80), as: UTF8.self)
      .replacingOccurrences(of: "\n", with: " ")
    return body.isEmpty ? "empty body" : "starts with '\(text)'"
  }
}
