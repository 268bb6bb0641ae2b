// TEMPORARY placeholder (not committed): the helper writes the real one.
import Foundation
enum DateText {
  static func checkFormat(_ format: String) -> String? { format.isEmpty ? "empty" : nil }
  static func parse(_ text: String, formats: [String], now: Date, timeZone: TimeZone, language: String) -> Date? {
    for format in formats {
      if format == "iso8601" { let f = ISO8601DateFormatter(); if let d = f.date(from: text) { return d }; f.formatOptions.insert(.withFractionalSeconds); if let d = f.date(from: text) { return d }; continue }
      if format == "relative" { continue }
      let f = DateFormatter(); f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = timeZone; f.dateFormat = format
      if let d = f.date(from: text.trimmingCharacters(in: .whitespaces)) { return d }
    }
    return nil
  }
}
