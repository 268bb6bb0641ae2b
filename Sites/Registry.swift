import ClarissaCore
import SiteFormat

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
    ] + declared)

  /// The definitions shipped in `Sites/<Name>/<id>.site.yaml`, read when first used (a test
  /// checks that each reads without a problem and has the id named here).
  static let declared: [BundledSite] = [
    BundledSite(
      id: "kleinanzeigen", bytes: PackageResources.kleinanzeigen_site_yaml,
      file: "Sites/Kleinanzeigen/kleinanzeigen.site.yaml"),
    BundledSite(
      id: "willhaben", bytes: PackageResources.willhaben_site_yaml,
      file: "Sites/Willhaben/willhaben.site.yaml"),
    BundledSite(
      id: "immoscout", bytes: PackageResources.immoscout_site_yaml,
      file: "Sites/Immoscout/immoscout.site.yaml"),
    BundledSite(
      id: "flatfox", bytes: PackageResources.flatfox_site_yaml,
      file: "Sites/Flatfox/flatfox.site.yaml"),
    BundledSite(
      id: "wg-gesucht", bytes: PackageResources.wg_gesucht_site_yaml,
      file: "Sites/WgGesucht/wg-gesucht.site.yaml"),
    BundledSite(
      id: "ohne-makler", bytes: PackageResources.ohne_makler_site_yaml,
      file: "Sites/OhneMakler/ohne-makler.site.yaml"),
    BundledSite(
      id: "einsa-immobilien", bytes: PackageResources.einsa_immobilien_site_yaml,
      file: "Sites/EinsaImmobilien/einsa-immobilien.site.yaml"),
    BundledSite(
      id: "neubaukompass", bytes: PackageResources.neubaukompass_site_yaml,
      file: "Sites/Neubaukompass/neubaukompass.site.yaml"),
  ]
}
