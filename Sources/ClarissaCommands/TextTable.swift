internal import Foundation

/// Rows of text as aligned columns, two spaces apart; the last column is not padded.
enum TextTable {
  static func render(_ rows: [[String]]) -> String {
    guard let columns = rows.map(\.count).max(), columns > 0 else { return "" }
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      row.enumerated().map { column, text in
        column == row.count - 1
          ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }
}
