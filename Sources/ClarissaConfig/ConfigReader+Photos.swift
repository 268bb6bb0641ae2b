internal import ClarissaCore
internal import YAML

/// `photos:`: the photo fingerprints of new listings (``PhotoSettings``): `off` (or `false`)
/// for none, or a mapping with `per_listing` and `per_run`.
extension ConfigReader {
  static let photoKeys = ["per_listing", "per_run"]

  func readPhotos(_ node: Node) -> PhotoSettings {
    if let scalar = node.scalar {
      switch scalar.value {
      case "off", "false": return .off
      case "on", "true": return PhotoSettings()
      default:
        error(
          "expected 'off' or a mapping with 'per_listing' and 'per_run' for 'photos', found "
            + "'\(scalar.value)'", at: node)
        return PhotoSettings()
      }
    }
    var settings = PhotoSettings()
    guard let table = table(node, "'photos'") else { return settings }
    checkKeys(table, allowed: Self.photoKeys, in: "'photos'")
    if let value = table["per_listing"],
      let count = integer(value, "'photos.per_listing'", in: PhotoSettings.perListingRange)
    {
      settings.perListing = count
    }
    if let value = table["per_run"],
      let count = integer(value, "'photos.per_run'", in: PhotoSettings.perRunRange)
    {
      settings.perRun = count
    }
    return settings
  }
}
