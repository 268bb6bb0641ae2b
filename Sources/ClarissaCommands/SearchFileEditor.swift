internal import ActionKeys
internal import Channels
internal import ClarissaConfig
internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Serve
internal import Synchronization

/// The page's search editor over the config file (``SearchEditing``): changes written by
/// ``SearchWriter`` (only the edited search's lines), checked with the loader `validate` uses
/// (the user's own sites and every channel kind), saved atomically with the previous file kept
/// as `<file>.bak`. One save at a time; a save is refused when the file's SHA-256 is not the
/// one its form was made from.
final class SearchFileEditor: SearchEditing {
  /// The config file.
  let path: String
  /// What `${NAME}` in the file is read from.
  let environment: [String: String]
  /// The config read again after a save, for the pages.
  let reload: @Sendable (ServedConfig) -> ServedConfig
  /// Held for the whole of a save: the file is read, checked and replaced by one at a time.
  private let saving = Mutex(())

  init(
    path: String, environment: [String: String],
    reload: @escaping @Sendable (ServedConfig) -> ServedConfig
  ) {
    self.path = path
    self.environment = environment
    self.reload = reload
  }

  /// The editor `serve` and `watch --http` hand the app: none when `serve.edit` is false.
  static func forServing(_ source: SourceOptions, settings: ServeSettings?) -> SearchFileEditor? {
    guard settings?.edit ?? true else { return nil }
    return SearchFileEditor(
      path: source.config, environment: ProcessInfo.processInfo.environment,
      reload: { ServedSetup.reloaded(source, keeping: $0) })
  }

  /// The file's backup: its previous version, replaced at each save.
  var backupPath: String { path + ".bak" }

  static func hash(_ bytes: [UInt8]) -> String { Secret.hex(SHA256.hash(bytes)) }

  func snapshot() -> EditorSnapshot {
    guard let bytes = read() else {
      return EditorSnapshot(
        hash: "", searches: [], channels: [], places: [], problem: "cannot read '\(path)'")
    }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let values = SearchValues.all(in: text) else {
      return EditorSnapshot(
        hash: Self.hash(bytes), searches: [], channels: [], places: [],
        problem: "'\(path)' cannot be read as YAML with a 'searches:' list; fix it by hand")
    }
    return EditorSnapshot(
      hash: Self.hash(bytes), searches: values.map(FormSearches.form),
      channels: SearchValues.names(of: "notify", in: text),
      places: SearchValues.names(of: "places", in: text))
  }

  func save(_ change: FormChange, expecting hash: String) -> EditorOutcome {
    saving.withLock { _ in
      guard let bytes = read() else { return .refused("cannot read '\(path)'") }
      guard Self.hash(bytes) == hash else { return .stale }
      let text = String(decoding: bytes, as: UTF8.self)
      let searches = SearchValues.all(in: text) ?? []
      let edit: SearchChange
      do throws(SearchEditProblem) {
        edit = try FormSearches.change(change, in: searches)
      } catch {
        return .refused(error.message)
      }
      let written: String
      do throws(SearchEditProblem) {
        written = try SearchWriter.apply(edit, to: text)
      } catch {
        return .refused(error.message)
      }
      let problems = check(written, edited: FormSearches.editedName(change))
      guard problems.isEmpty else { return .invalid(problems) }
      return store(Array(written.utf8), previous: bytes)
    }
  }

  func reloaded(keeping previous: ServedConfig) -> ServedConfig { reload(previous) }

  /// The errors the config reader finds in `text`, each with its line and the edited search's
  /// key that line belongs to.
  func check(_ text: String, edited: String?) -> [EditorProblem] {
    let sites = UserSites.load(forConfig: path).catalog
    let folder = (path as NSString).deletingLastPathComponent
    let result = ConfigLoader.load(
      bytes: Array(text.utf8), name: path, baseDirectory: folder.isEmpty ? "." : folder,
      environment: environment, sites: sites, channels: ChannelRegistry.all)
    return result.diagnostics.filter { $0.severity == .error }.map { diagnostic in
      let line = diagnostic.location?.line ?? 0
      let field = edited.flatMap { SearchValues.key(atLine: line, inSearch: $0, of: text) }
      return EditorProblem(
        line: line, column: diagnostic.location?.column ?? 0, field: field,
        message: SafeText.line(diagnostic.message))
    }
  }

  /// Keeps the previous file as the backup, then puts the new text in its place: each a
  /// temporary file beside it, synced and renamed, with the file's own mode.
  private func store(_ bytes: [UInt8], previous: [UInt8]) -> EditorOutcome {
    let target = (path as NSString).resolvingSymlinksInPath
    let mode =
      (try? FileManager.default.attributesOfItem(atPath: target)[.posixPermissions])
      .flatMap { $0 as? NSNumber }.map(\.uint16Value) ?? 0o644
    do {
      try FileWriting.replace(target + ".bak", mode: mode) { write in try write(previous) }
      try FileWriting.replace(target, mode: mode) { write in try write(bytes) }
    } catch {
      return .refused("'\(error.path)' could not be written: \(error.reason)")
    }
    return .saved(hash: Self.hash(bytes))
  }

  private func read() -> [UInt8]? {
    guard let data = FileManager.default.contents(atPath: path),
      data.count <= ConfigLoader.maxFileBytes
    else { return nil }
    return Array(data)
  }
}
