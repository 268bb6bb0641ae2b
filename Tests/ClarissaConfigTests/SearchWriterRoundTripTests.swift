import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing
import YAML

/// Given the bundled searches.yaml, examples/starter.yaml and the valid config fixtures, when
/// 200 seeded random changes (keys set, changed and removed, searches paused, added, renamed
/// and deleted) are written by the form's writer, then each file is valid through the real
/// reader after every change, every line outside the edited search is as it was, and the keys
/// written read back as written.
@Suite struct SearchWriterRoundTripTests {
  /// A file under test: its text now and the folder its relative paths are read against.
  struct File {
    let name: String
    let folder: String
    var text: String
  }

  static func files() throws -> [File] {
    let root = Fixtures.root.deletingLastPathComponent()
    var files = [
      File(name: "searches.yaml", folder: root.path, text: ""),
      File(
        name: "starter.yaml", folder: root.appendingPathComponent("examples").path, text: ""),
    ]
    let valid = Fixtures.root.appendingPathComponent("config/valid")
    files += Fixtures.yamlFiles(in: "config/valid").map {
      File(name: $0, folder: valid.path, text: "")
    }
    return try files.map { file in
      var file = file
      file.text = try String(
        contentsOfFile: file.folder + "/" + file.name, encoding: .utf8)
      return file
    }
  }

  static func errors(_ file: File) -> String? {
    let result = ConfigLoader.load(
      bytes: Array(file.text.utf8), name: file.name, baseDirectory: file.folder,
      environment: Fixtures.environment, sites: Registry.sites, channels: ChannelRegistry.all)
    guard result.diagnostics.hasErrors else { return nil }
    return DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
  }

  @Test func twoHundredEditsKeepEachFileValidAndTheRestOfItAsItWas() throws {
    var files = try Self.files()
    #expect(files.count >= 10)
    for file in files { #expect(Self.errors(file) == nil, "\(file.name) is valid to begin with") }
    var random = SeededRandom(seed: 45)
    var made = [String: Int]()
    for round in 0..<200 {
      let index = round % files.count
      let before = files[index]
      let layout = try #require(Layout(before.text))
      let change = EditPlan.change(for: layout, text: before.text, random: &random)
      let after: String
      do {
        after = try SearchWriter.apply(change, to: before.text)
      } catch {
        Issue.record("round \(round), \(before.name): \(change) refused: \(error)")
        continue
      }
      files[index].text = after
      made[EditPlan.kind(change), default: 0] += 1
      if let problems = Self.errors(files[index]) {
        Issue.record("round \(round), \(before.name) after \(change):\n\(problems)\n\(after)")
        files[index] = before
        continue
      }
      try Self.checkUnchangedOutside(change, layout: layout, before: before.text, after: after)
      try Self.checkReadBack(change, after: after)
    }
    // Every kind of change was made, many times.
    for kind in ["set", "remove", "pause", "resume", "add", "delete", "rename"] {
      #expect(made[kind, default: 0] >= 5, "\(kind): \(made[kind, default: 0])")
    }
  }

  /// Lines before the edited search (and its comment lines) and from the next search (or the
  /// next top-level key) on are the same lines, in the same order.
  static func checkUnchangedOutside(
    _ change: SearchChange, layout: Layout, before: String, after: String
  ) throws {
    let old = before.split(separator: "\n", omittingEmptySubsequences: false)
    let new = after.split(separator: "\n", omittingEmptySubsequences: false)
    let (head, tail): (Int, Int)
    switch change {
    case .add:
      head = layout.lastContentLine(before: layout.tailStart)
      tail = old.count - layout.tailStart + 1
    case .edit(let name, _, _), .delete(let name):
      let item = try #require(layout.index(of: name))
      if case .delete = change {
        head = layout.lastContentLine(before: layout.items[item].start.line)
      } else {
        head = layout.items[item].start.line - 1
      }
      let next =
        item + 1 < layout.items.count ? layout.items[item].end.line : layout.tailStart
      tail = old.count - next + 1
    }
    #expect(Array(old.prefix(head)) == Array(new.prefix(head)), "\(change)")
    #expect(Array(old.suffix(tail)) == Array(new.suffix(tail)), "\(change)")
    #expect(new.count >= head + tail)
  }

  /// The keys set read back as set, the keys removed are gone, a deleted search is gone.
  static func checkReadBack(_ change: SearchChange, after: String) throws {
    let searches = try #require(SearchValues.all(in: after))
    switch change {
    case .add(let pairs):
      let name = try #require(pairs.first { $0.key == "name" }?.value)
      let added = try #require(searches.last)
      #expect(EditValue.text(added.name).means(name))
      for pair in pairs {
        #expect(added.value(pair.key)?.means(pair.value) == true, "\(pair.key) of a new search")
      }
    case .edit(let name, let set, let remove):
      var newName = name
      if case .text(let renamed)? = set.first(where: { $0.key == "name" })?.value {
        newName = renamed
      }
      let search = try #require(searches.first { $0.name == newName })
      for pair in set {
        #expect(search.value(pair.key)?.means(pair.value) == true, "\(pair.key) of \(newName)")
      }
      // A key removed is no longer the search's own (a `<<` merge may still bring one in).
      let layout = try #require(Layout(after))
      let index = try #require(layout.index(of: newName))
      let own = layout.ownKeys(of: layout.items[index])
      for key in remove { #expect(!own.contains(key), "\(key) of \(newName) removed") }
      _ = search
    case .delete(let name):
      #expect(!searches.contains { $0.name == name })
    }
  }
}

/// Where a file's searches are, read with libyaml independently of the writer's own layout.
struct Layout {
  let items: [Node]
  /// The first line after the searches (the next top-level key's, or past the end).
  let tailStart: Int
  let lines: [Substring]

  init?(_ text: String) {
    lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let pairs = YAMLReader.read(text).root?.mapping,
      let at = pairs.firstIndex(where: { $0.key.scalar?.value == "searches" }),
      let items = pairs[at].value.sequence
    else { return nil }
    self.items = items
    tailStart =
      pairs.filter { $0.key.start > pairs[at].key.start }.map(\.key.start.line).min()
      ?? lines.count + 1
  }

  func index(of name: String) -> Int? {
    items.firstIndex {
      $0.mapping?.contains { $0.key.scalar?.value == "name" && $0.value.scalar?.value == name }
        == true
    }
  }

  /// The last line before `line` that holds more than spaces and a comment (0 when none).
  func lastContentLine(before line: Int) -> Int {
    var at = line - 1
    while at >= 1 {
      let content = lines[at - 1].drop { $0 == " " }
      if !content.isEmpty, content.first != "#" { return at }
      at -= 1
    }
    return 0
  }

  /// The search's own key names and its site, as the file writes them.
  func ownKeys(of item: Node) -> [String] {
    (item.mapping ?? []).filter { $0.key.start >= item.start && $0.key.start < item.end }
      .compactMap { $0.key.scalar?.value }
  }
}
