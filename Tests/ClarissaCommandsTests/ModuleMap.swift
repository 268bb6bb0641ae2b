import Foundation

/// Modules and what each depends on, as docs/architecture.md draws them or as SwiftPM reads
/// Package.swift.
struct ModuleMap {
  /// One module (a target) and the names it depends on (targets and package products).
  struct Module {
    let name: String
    let dependencies: Set<String>
    /// The 1-based line of the document that names it (0 for the package).
    let line: Int
    /// Which list of the document holds it (0: the first), and its place in that list.
    let list: Int
    let place: Int
    /// The folder of its sources, from the repository's root (the package's reading only).
    var folder: String? = nil
    /// SwiftPM's kind of target: `regular`, `executable`, `test` or `system`.
    var kind = "regular"
  }

  /// Every module, in the order read.
  var modules: [Module] = []
  /// Problems of the reading itself (a module listed twice, a line that is not a module).
  var problems: [String] = []

  /// The module named `name`.
  func module(_ name: String) -> Module? { modules.first { $0.name == name } }

  /// The lists of `## Modules` in `markdown`: each fenced `text` block, one module a line
  /// (`Name (note) -> Dependency, Dependency (note): what it is`, `(nothing)` for none), a
  /// line starting with white space continuing the one before. `file` names the document in
  /// problems.
  static func read(markdown: String, file: String) -> ModuleMap {
    var map = ModuleMap()
    var inSection = false
    var list = -1
    var fenced = false
    var pending: (text: String, line: Int)?
    func flush() {
      guard let entry = pending else { return }
      pending = nil
      map.add(entry.text, line: entry.line, list: list, file: file)
    }
    for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
      if line.hasPrefix("## ") {
        inSection = line == "## Modules"
        continue
      }
      guard inSection else { continue }
      if line.hasPrefix("```") {
        flush()
        fenced.toggle()
        if fenced { list += 1 }
        continue
      }
      guard fenced, !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
      if line.first?.isWhitespace == true, let entry = pending {
        pending = (entry.text + " " + line.trimmingCharacters(in: .whitespaces), entry.line)
      } else {
        flush()
        pending = (line, index + 1)
      }
    }
    flush()
    return map
  }

  private mutating func add(_ text: String, line: Int, list: Int, file: String) {
    let sides = text.components(separatedBy: "->")
    guard sides.count == 2, let name = Self.leadingName(sides[0]) else {
      problems.append("\(file):\(line): not a module line ('Name -> dependencies'): '\(text)'")
      return
    }
    if let known = module(name) {
      problems.append("\(file):\(line): '\(name)' is listed again (first at line \(known.line))")
      return
    }
    // What follows the first ": " says what the module is; before it, the dependencies.
    let right = sides[1].components(separatedBy: ": ")[0].trimmingCharacters(in: .whitespaces)
    let names =
      right.hasPrefix("(nothing)")
      ? [] : right.split(separator: ",").compactMap { Self.leadingName(String($0)) }
    let place = modules.filter { $0.list == list }.count
    modules.append(
      Module(name: name, dependencies: Set(names), line: line, list: list, place: place))
  }

  /// The name a part starts with (letters, digits, `_` and `-`), notes after it left out.
  private static func leadingName(_ part: String) -> String? {
    let name = part.trimmingCharacters(in: .whitespaces).prefix {
      $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-"
    }
    return name.isEmpty ? nil : String(name)
  }

  /// The targets of `swift package dump-package`'s JSON, with their dependencies (targets by
  /// name, targets under a condition, and products, all by name).
  static func read(dumpedPackage data: Data) throws -> ModuleMap {
    guard
      let package = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let targets = package["targets"] as? [[String: Any]]
    else { throw MapError(description: "swift package dump-package gave no targets") }
    var map = ModuleMap()
    for (place, target) in targets.enumerated() {
      guard let name = target["name"] as? String else { continue }
      let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap {
        dependency -> String? in
        // {"byName": [name, condition]}, {"target": [...]}, {"product": [name, package, ...]}
        dependency.values.first.flatMap { ($0 as? [Any])?.first as? String }
      }
      let kind = target["type"] as? String ?? "regular"
      let folder =
        target["path"] as? String ?? (kind == "test" ? "Tests/\(name)" : "Sources/\(name)")
      map.modules.append(
        Module(
          name: name, dependencies: Set(dependencies), line: 0, list: 0, place: place,
          folder: kind == "system" ? nil : folder, kind: kind))
    }
    return map
  }

  /// A reading that could not be made.
  struct MapError: Error, CustomStringConvertible {
    let description: String
  }
}
