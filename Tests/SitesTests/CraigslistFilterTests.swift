import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import Sites

/// Every Craigslist filter clarissa offers is one a real sapi response declares: its query name,
/// its kind, and each value code with the label Craigslist gives it.
@Suite struct CraigslistFilterTests {
  /// name -> (type, option values) from the `data.filters` lists of the real responses.
  static func declaredFilters() throws -> [String: (type: String, values: Set<String>)] {
    var found: [String: (type: String, values: Set<String>)] = [:]
    func visit(_ entries: [[String: Any]]) {
      for entry in entries {
        if let form = entry["form"] as? [[String: Any]] { visit(form) }
        let type = entry["type"] as? String ?? ""
        let values = Set(
          (entry["options"] as? [[String: Any]] ?? []).compactMap { option in
            option["value"].map { "\($0)" }
          })
        // A group carries the name of its first member: the member itself says its type.
        if type != "group", let name = entry["name"] as? String { found[name] = (type, values) }
        for bound in ["minVal", "maxVal"] {
          if let name = (entry[bound] as? [String: Any])?["name"] as? String {
            found[name] = ("range", [])
          }
        }
      }
    }
    for file in ["littlerock-rea-sapi-1.json", "sfbay-sss-sapi-1.json"] {
      let bytes = try Fixtures.bytes("craigslist/\(file)")
      let json = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
      let data = try #require(json?["data"] as? [String: Any])
      visit(try #require(data["filters"] as? [[String: Any]]))
    }
    return found
  }

  @Test func everyFilterIsDeclaredByARealResponse() throws {
    let declared = try Self.declaredFilters()
    for filter in CraigslistFilter.all {
      let real = try #require(declared[filter.query], "\(filter.query) is in no real response")
      switch filter.kind {
      case .integer: #expect(real.type == "range", "\(filter.query)")
      case .bool: #expect(real.type == "boolean", "\(filter.query)")
      case .text: #expect(real.type == "text", "\(filter.query)")
      case .choice, .choices:
        #expect(real.type == "multi" || real.type == "select", "\(filter.query)")
        #expect(Set(filter.codes.values).isSubset(of: real.values), "\(filter.query)")
      case .urls: Issue.record("\(filter.query): a filter is never a URL")
      }
    }
  }

  @Test func filtersAreDeclaredParametersOfTheSite() {
    let names = CraigslistSite().parameters.map(\.name)
    for filter in CraigslistFilter.all { #expect(names.contains(filter.name)) }
    #expect(Set(names).count == names.count, "no key declared twice")
  }
}
