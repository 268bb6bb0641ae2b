internal import ClarissaCore
internal import ListingStore
internal import Presentation

/// Deal context (``DealContext``) on what a run sends and reports: filled from the store for the
/// listings being sent and the report's new and changed ones, each search's market read once.
extension DealContextBook {
  /// The run's new, changed and delivered listings with their context, for the reports.
  func annotate(_ result: inout RunResult) throws {
    for index in result.searches.indices {
      let name = result.searches[index].name
      result.searches[index].new = try annotated(result.searches[index].new, search: name)
      result.searches[index].changed = try annotated(result.searches[index].changed, search: name)
      result.searches[index].delivered = try annotated(
        result.searches[index].delivered, search: name)
    }
  }
}
