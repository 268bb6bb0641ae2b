import ClarissaCore

/// The explicit list of site adapters (Swift has no runtime discovery). Adding a site adds one
/// line here; nothing under `Sources/` changes.
public enum Registry {
  /// Every adapter, in the order `clarissa sites` lists them.
  public static let sites = SiteCatalog(
    [
      CraigslistSite(),
      GenericFeedSite(),
      OodleSite(),
      BackpageSite(),
    ] + declared.compactMap { $0 })

  /// The definitions shipped in `Sites/<Name>/<id>.site.yaml` (a test checks that each reads
  /// without a problem, so none is ever left out here).
  static let declared: [DeclaredSite?] = [
    DefinitionLoader.bundled(
      PackageResources.kleinanzeigen_site_yaml, file: "Sites/Kleinanzeigen/kleinanzeigen.site.yaml"),
    DefinitionLoader.bundled(
      PackageResources.willhaben_site_yaml, file: "Sites/Willhaben/willhaben.site.yaml"),
    DefinitionLoader.bundled(
      PackageResources.immoscout_site_yaml, file: "Sites/Immoscout/immoscout.site.yaml"),
    DefinitionLoader.bundled(
      PackageResources.flatfox_site_yaml, file: "Sites/Flatfox/flatfox.site.yaml"),
    DefinitionLoader.bundled(
      PackageResources.wg_gesucht_site_yaml, file: "Sites/WgGesucht/wg-gesucht.site.yaml"),
  ]
}
