internal import ClarissaCore
internal import Foundation
internal import Geography
internal import YAML

/// `places:` at the top level, and the readers of a search's `near` and `within`.
extension ConfigReader {
  /// `places: {work: [52.520, 13.405]}`: latitude first, as people say it.
  func readPlaces(_ node: Node?) -> [NamedPlace] {
    guard let node, !node.isNull, let table = table(node, "'places'") else { return [] }
    placeNames = Set(table.entries.map(\.key))
    return table.entries.compactMap { entry in
      let what = "place '\(entry.key)'"
      guard let items = entry.value.sequence, items.count == 2 else {
        error(
          "expected [latitude, longitude] for \(what), as in '\(entry.key): [52.520, 13.405]', "
            + "found \(entry.value.kindDescription)", at: entry.value)
        return nil
      }
      guard let latitude = signedNumber(items[0], "the latitude of \(what)"),
        let longitude = signedNumber(items[1], "the longitude of \(what)")
      else { return nil }
      guard abs(latitude) <= 90 else {
        let swapped = abs(longitude) <= 90 ? "; write [latitude, longitude], latitude first" : ""
        error(
          "the latitude of \(what) must be from -90 to 90, found \(items[0].scalar?.value ?? "")"
            + swapped, at: items[0])
        return nil
      }
      guard abs(longitude) <= 180 else {
        error(
          "the longitude of \(what) must be from -180 to 180, found "
            + (items[1].scalar?.value ?? ""), at: items[1])
        return nil
      }
      placeNodes[entry.key] = entry.value
      return NamedPlace(
        name: entry.key, coordinates: Coordinates(latitude: latitude, longitude: longitude))
    }
  }

  /// `near: {work: 3 km, station: 500 m}`.
  func readNear(_ field: Field, places: [NamedPlace]) -> [PlaceRadius] {
    let what = "'near' in \(field.origin)"
    guard field.node.mapping != nil else {
      error(
        "expected a mapping such as '{work: 3 km}' for \(what), found "
          + field.node.kindDescription, at: field.node)
      return []
    }
    guard let table = table(field.node, what) else { return [] }
    return table.entries.compactMap { entry in
      let place = places.first { $0.name == entry.key }
      if place == nil { reportUnknownPlace(entry.key, in: what, places: places, at: entry.keyNode) }
      guard let (radius, unit) = distance(entry.value, "'near.\(entry.key)' in \(field.origin)"),
        var place
      else { return nil }
      place.unit = unit == .metres ? .kilometres : unit
      return PlaceRadius(place: place, radius: radius)
    }
  }

  /// "unknown place 'wrok' in 'near' in search 'flat'; did you mean 'work'? (defined: work)"; a
  /// place written under `places:` with an error has its own message, and none here.
  func reportUnknownPlace(_ name: String, in what: String, places: [NamedPlace], at node: Node) {
    guard !placeNames.contains(name) else { return }
    let names = places.map(\.name)
    let defined =
      names.isEmpty
      ? "no place is defined: add 'places: {\(name): [latitude, longitude]}' at the top level"
      : "defined: \(names.joined(separator: ", "))"
    error(
      "unknown place '\(name)' in \(what)" + Suggestions.hint(for: name, in: names)
        + " (\(defined))", at: node)
  }

  /// `3 km`, `500 m`, `2 mi`: above zero, with its unit.
  private func distance(_ node: Node, _ what: @autoclosure () -> String) -> (
    Distance, DistanceUnit
  )? {
    guard let scalar = node.scalar, !node.isNull else {
      error(
        "expected a distance such as '3 km' for \(what()), found \(node.kindDescription)", at: node)
      return nil
    }
    let (number, unitText) = Self.splitNumber(scalar.value)
    let units = DistanceUnit.allCases.map(\.rawValue)
    guard let number, number > 0 else {
      error(
        "expected a distance above zero such as '3 km', '500 m' or '2 mi' for \(what()), found "
          + "'\(scalar.value)'", at: node)
      return nil
    }
    guard let unit = DistanceUnit(rawValue: unitText) else {
      let shown = ListingFacts.number(number, digits: 3)
      error(
        unitText.isEmpty
          ? "\(what()) needs a unit: write '\(shown) km', '\(shown) m' or '\(shown) mi'"
          : "unknown distance unit '\(unitText)' in \(what())"
            + Suggestions.hint(for: unitText, in: units) + " (write km, m or mi)", at: node)
      return nil
    }
    return (Distance(number, unit), unit)
  }

  /// The area a GeoJSON file draws, read once per load; its problems are reported in the file,
  /// by line and column.
  func area(_ path: String, at node: Node) -> GeoArea? {
    let resolved = resolvedPath(path)
    if let known = areas[resolved] { return known }
    let shown =
      path.hasPrefix("/")
      ? path
      : ((file as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent(path)
    let area = readArea(resolved, shown: shown, written: path, at: node)
    areas[resolved] = .some(area)
    return area
  }

  private func readArea(_ resolved: String, shown: String, written: String, at node: Node)
    -> GeoArea?
  {
    let size = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.size] as? Int
    guard let size, let data = FileManager.default.contents(atPath: resolved) else {
      let reason = FileManager.default.fileExists(atPath: resolved) ? "cannot read" : "no such file"
      error(
        "\(reason) '\(written)' for 'within' (a GeoJSON file, relative to the config's folder)",
        at: node)
      return nil
    }
    guard size <= GeoJSONReader.maxFileBytes else {
      error(
        "'\(written)' is \(size) bytes; a GeoJSON area may be at most "
          + "\(GeoJSONReader.maxFileBytes >> 20) MiB", at: node)
      return nil
    }
    let bytes = Array(data)
    var (area, problems) = GeoJSONReader.read(bytes, file: shown)
    // `explain` names the area as the config writes it.
    area?.name = written
    if !problems.isEmpty {
      extraSources[shown] = String(decoding: bytes, as: UTF8.self)
      let used = location(node)
      diagnostics += problems.map { problem in
        var problem = problem
        problem.notes.append(Diagnostic.Note("used by 'within' here", at: used))
        return problem
      }
    }
    return area
  }

  /// A number, negative allowed (a latitude, a longitude), written plain.
  private func signedNumber(_ node: Node, _ what: @autoclosure () -> String) -> Double? {
    guard let scalar = node.scalar, scalar.style == .plain, let value = Double(scalar.value),
      value.isFinite
    else {
      error("expected a number for \(what()), found \(node.kindDescription)", at: node)
      return nil
    }
    return value
  }
}
