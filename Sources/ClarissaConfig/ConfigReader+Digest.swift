internal import ClarissaCore
internal import YAML

/// A channel's `digest`: `true` (one message per search at the end of each run), `false`, or a
/// schedule (``DigestSchedule``: `daily 08:00`, `weekly mon 08:00`, with a time zone or not).
extension ConfigReader {
  func readDigest(_ node: Node, into channel: inout Channel, _ what: String) {
    // Words YAML reads as yes or no are a true or false (or a mistake of one); the rest a
    // schedule.
    let yesOrNo = ["true", "false", "yes", "no", "on", "off", "y", "n"]
    if let scalar = node.scalar, scalar.style == .plain, yesOrNo.contains(scalar.value.lowercased())
    {
      if let digest = bool(node, "'digest' of \(what)") {
        channel.grouping = digest ? .digest : .each
      }
      return
    }
    guard let text = string(node, "'digest' of \(what)") else { return }
    switch DigestSchedule.parse(text) {
    case .success(let found):
      channel.grouping = .digest
      channel.schedule = found
    case .failure(let problem):
      let spot = problem.word.map { place(of: $0, in: node) } ?? location(node)
      error("\(problem.message) ('digest' of \(what))", at: spot)
    }
  }
}
