public import ClarissaCore
public import Foundation

/// `clarissa sites check`: a definition read, then a saved answer read with it, field by field,
/// so that a person mending a selector sees at once which one finds nothing and why.
public enum DefinitionCheck {
  /// What the check found.
  public struct Report: Sendable {
    /// The definition's problems, and on the sample the fields that found nothing (warnings at
    /// the field's line).
    public var diagnostics: [Diagnostic] = []
    /// The listings and per-field counts, as text.
    public var text = ""
    /// Whether the definition reads and the sample gave listings (or the next requests).
    public var passed = false
    /// Whether the definition reads (its mistakes exit 2; a sample that reads nothing, 1).
    public var definitionReads = false
    /// The listings read from the sample (for what a run would make of them: the folds).
    public var listings: [Listing] = []
    /// Whether the definition says each id is one listing (`ids: unique`).
    public var idsUnique = false
  }

  /// Checks the definition at `path`, and with `sample` reads it as the answer of the request
  /// named by `mode` (the first when nil) from `url`, at `now` (for relative dates).
  public static func run(
    definitionAt path: String, sample: [UInt8]?, mode: String?, url: String?, now: Date
  ) -> Report {
    var report = Report()
    guard let data = FileManager.default.contents(atPath: path) else {
      report.diagnostics = [.error("cannot read the site definition '\(path)'", at: nil)]
      return report
    }
    let (definition, diagnostics) = DefinitionReader.read(Array(data), file: path)
    report.diagnostics = diagnostics
    guard let definition else { return report }
    // A pasted URL that does not give its example request is a mistake of the definition.
    let examples = DeclaredSite(definition: definition).searchURLProblems()
    report.diagnostics += examples
    guard examples.isEmpty else { return report }
    report.definitionReads = true
    report.idsUnique = definition.idsUnique
    guard let sample else {
      report.text = summary(definition)
      report.passed = true
      return report
    }
    let index = mode.flatMap { definition.modes.firstIndex(of: $0) } ?? 0
    if let mode, !definition.modes.contains(mode) {
      report.diagnostics.append(
        .error(
          "'\(mode)' is not a request of '\(definition.id)'"
            + Suggestions.hint(for: mode, in: definition.modes)
            + " (requests: \(definition.modes.joined(separator: ", ")))", at: nil))
      return report
    }
    let step = definition.steps[index]
    let reader = PageReader(
      definition: definition, spec: step.read, pageURL: url ?? "https://example.invalid/",
      now: now)
    do {
      let result = try reader.read(sample)
      report.text = describe(result, step: step, definition: definition)
      report.listings = result.listings
      report.diagnostics += silent(result, step: step)
      report.passed = !result.listings.isEmpty || !result.collected.isEmpty
      if let why = result.itemsNotFound, let items = step.read.items {
        report.diagnostics.append(.error("'items' found nothing: \(why)", at: items.location))
        report.passed = false
      }
      if result.listings.isEmpty,
        let other = readingStep(sample, definition, besides: index, url, now)
      {
        report.diagnostics.append(
          .warning(
            "no listing read as '\(definition.modes[index])'; read as '\(other.mode)' it gives "
              + "\(other.count) listing(s): give --mode \(other.mode)", at: step.read.location))
        report.passed = false
      }
    } catch {
      report.diagnostics.append(
        .error("reading the sample: \(error.message)", at: step.read.location))
    }
    return report
  }

  /// The first other request whose reading of `sample` gives listings, and how many.
  package static func readingStep(
    _ sample: [UInt8], _ definition: SiteDefinition, besides index: Int, _ url: String?,
    _ now: Date
  ) -> (mode: String, count: Int)? {
    for (other, step) in definition.steps.enumerated() where other != index {
      let reader = PageReader(
        definition: definition, spec: step.read, pageURL: url ?? "https://example.invalid/",
        now: now)
      if let count = try? reader.read(sample).listings.count, count > 0 {
        return (definition.modes[other], count)
      }
    }
    return nil
  }

  private static func summary(_ definition: SiteDefinition) -> String {
    var lines = [
      "\(definition.file): valid: site '\(definition.id)' (\(definition.name), "
        + "\(definition.status.rawValue)), \(definition.steps.count) request(s)"
    ]
    lines.append("give --sample with a saved answer to see what each field reads from it")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Each listing's fields as read, then per field the items it found something in.
  private static func describe(
    _ result: PageReader.Result, step: RequestStep, definition: SiteDefinition
  ) -> String {
    var lines: [String] = []
    for (name, values) in result.collected.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "collect \(name): \(values.count) value(s): " + values.prefix(5).joined(separator: ", ")
          + (values.count > 5 ? ", ..." : ""))
    }
    let fields = step.read.fields + step.read.facts
    let width = max(11, fields.map(\.key.count).max() ?? 0) + 1
    for index in result.values.indices {
      lines.append("item \(index + 1)")
      let listing =
        result.listingOfItem.indices.contains(index)
        ? result.listingOfItem[index].map { result.listings[$0] } : nil
      for field in fields {
        let values = result.values(of: field, item: index)
        let shown = values.map(\.shown)
        let stored = field.fact == nil ? listing?.stored(field.name) : nil
        let same = [values.first?.text, values.first?.shown]
        let changed = stored.map { same.contains($0) ? "" : "  → \($0)" } ?? ""
        lines.append(
          "  \(field.key.padding(toLength: width, withPad: " ", startingAt: 0))"
            + (shown.isEmpty ? "(nothing)" : shown.prefix(3).joined(separator: " | ")) + changed)
      }
    }
    lines.append("")
    lines.append("\(result.items) items, \(result.listings.count) listings")
    for field in fields {
      let path = field.selector?.text ?? "value: \(field.value ?? "")"
      lines.append(
        "  \(field.key.padding(toLength: width, withPad: " ", startingAt: 0))"
          + "\(result.found(by: field))/\(result.items)  \(path)  "
          + "(\(field.location.line):\(field.location.column))")
    }
    // What the listings describe (rooms, area, place, other facts): the facts some have.
    let facts = ListingFactCounts(result.listings)
    if facts.counts.contains(where: { $0.count > 0 }) {
      lines.append("listings with each fact: \(facts.found)")
    }
    lines += result.notes.map { "note: \($0)" }
    lines += several(result, step: step).map { "note: \($0)" }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Fields (but `images`, which keeps all) whose path found several values in an item: the
  /// listing keeps the first.
  private static func several(_ result: PageReader.Result, step: RequestStep) -> [String] {
    (step.read.fields + step.read.facts).filter { $0.name != .images }.compactMap { field in
      let items = result.values.indices.filter {
        result.values(of: field, item: $0).count > 1
      }.count
      guard items > 0 else { return nil }
      return "\(field.shownName) found several values in \(items) of the "
        + "\(result.items) items; the listing keeps the first ({join: ' '} keeps them all)"
    }
  }

  /// A field that found nothing in any item: a warning at its line.
  private static func silent(_ result: PageReader.Result, step: RequestStep) -> [Diagnostic] {
    guard result.items > 0 else { return [] }
    let fields = step.read.fields + step.read.facts
    return fields.filter { $0.selector != nil && result.found(by: $0) == 0 }.map {
      .warning(
        "\($0.shownName) ('\($0.selector?.text ?? "")') found nothing in any of the "
          + "\(result.items) items"
          + ($0.optional
            ? "" : "; mend the path, or mark the field 'optional: true' if the site leaves it out"),
        at: $0.location)
    }
  }
}

extension FieldValue {
  /// As `sites check` shows it.
  package var shown: String {
    switch self {
    case .text(let text):
      // A line break shows as `\n`, so that each field stays on its line.
      let line = text.replacingOccurrences(of: "\n", with: "\\n")
      return "'\(line.count > 80 ? String(line.prefix(77)) + "..." : line)'"
    case .number: return text
    case .date(let date): return DateFormat.internet.string(from: date)
    case .price(let amount, let currency):
      return "\(FieldValue.number(amount).text) \(currency ?? "?")"
    }
  }
}
