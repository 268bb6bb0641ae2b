public import ClarissaCore
internal import SiteFormat

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
      id: "autoscout24-de", bytes: PackageResources.autoscout24_de_site_yaml,
      file: "Sites/AutoScout24De/autoscout24-de.site.yaml"),
    BundledSite(
      id: "autotrader-uk", bytes: PackageResources.autotrader_uk_site_yaml,
      file: "Sites/AutotraderUK/autotrader-uk.site.yaml"),
    BundledSite(
      id: "bazos", bytes: PackageResources.bazos_site_yaml,
      file: "Sites/Bazos/bazos.site.yaml"),
    BundledSite(
      id: "daft", bytes: PackageResources.daft_site_yaml,
      file: "Sites/Daft/daft.site.yaml"),
    BundledSite(
      id: "deutsche-wohnen", bytes: PackageResources.deutsche_wohnen_site_yaml,
      file: "Sites/DeutscheWohnen/deutsche-wohnen.site.yaml"),
    BundledSite(
      id: "einsa-immobilien", bytes: PackageResources.einsa_immobilien_site_yaml,
      file: "Sites/EinsaImmobilien/einsa-immobilien.site.yaml"),
    BundledSite(
      id: "engel-voelkers", bytes: PackageResources.engel_voelkers_site_yaml,
      file: "Sites/EngelVoelkers/engel-voelkers.site.yaml"),
    BundledSite(
      id: "funda", bytes: PackageResources.funda_site_yaml,
      file: "Sites/Funda/funda.site.yaml"),
    BundledSite(
      id: "homegate", bytes: PackageResources.homegate_site_yaml,
      file: "Sites/Homegate/homegate.site.yaml"),
    BundledSite(
      id: "idealista-es", bytes: PackageResources.idealista_es_site_yaml,
      file: "Sites/IdealistaES/idealista-es.site.yaml"),
    BundledSite(
      id: "idealista", bytes: PackageResources.idealista_site_yaml,
      file: "Sites/Idealista/idealista.site.yaml"),
    BundledSite(
      id: "imaxx", bytes: PackageResources.imaxx_site_yaml,
      file: "Sites/Imaxx/imaxx.site.yaml"),
    BundledSite(
      id: "immobilien-de", bytes: PackageResources.immobilien_de_site_yaml,
      file: "Sites/ImmobilienDe/immobilien-de.site.yaml"),
    BundledSite(
      id: "immoswp", bytes: PackageResources.immoswp_site_yaml,
      file: "Sites/Immoswp/immoswp.site.yaml"),
    BundledSite(
      id: "inberlinwohnen", bytes: PackageResources.inberlinwohnen_site_yaml,
      file: "Sites/InBerlinWohnen/inberlinwohnen.site.yaml"),
    BundledSite(
      id: "kijiji", bytes: PackageResources.kijiji_site_yaml,
      file: "Sites/Kijiji/kijiji.site.yaml"),
    BundledSite(
      id: "marktplaats", bytes: PackageResources.marktplaats_site_yaml,
      file: "Sites/Marktplaats/marktplaats.site.yaml"),
    BundledSite(
      id: "mcmakler", bytes: PackageResources.mcmakler_site_yaml,
      file: "Sites/McMakler/mcmakler.site.yaml"),
    BundledSite(
      id: "nehnutelnosti", bytes: PackageResources.nehnutelnosti_site_yaml,
      file: "Sites/Nehnutelnosti/nehnutelnosti.site.yaml"),
    BundledSite(
      id: "neubaukompass", bytes: PackageResources.neubaukompass_site_yaml,
      file: "Sites/Neubaukompass/neubaukompass.site.yaml"),
    BundledSite(
      id: "ohne-makler", bytes: PackageResources.ohne_makler_site_yaml,
      file: "Sites/OhneMakler/ohne-makler.site.yaml"),
    BundledSite(
      id: "olx-pl", bytes: PackageResources.olx_pl_site_yaml,
      file: "Sites/OlxPl/olx-pl.site.yaml"),
    BundledSite(
      id: "olx-ua", bytes: PackageResources.olx_ua_site_yaml,
      file: "Sites/OlxUa/olx-ua.site.yaml"),
    BundledSite(
      id: "pararius", bytes: PackageResources.pararius_site_yaml,
      file: "Sites/Pararius/pararius.site.yaml"),
    BundledSite(
      id: "reality-cz", bytes: PackageResources.reality_cz_site_yaml,
      file: "Sites/RealityCz/reality-cz.site.yaml"),
    BundledSite(
      id: "reality-sk", bytes: PackageResources.reality_sk_site_yaml,
      file: "Sites/RealitySk/reality-sk.site.yaml"),
    BundledSite(
      id: "regionalimmobilien24", bytes: PackageResources.regionalimmobilien24_site_yaml,
      file: "Sites/Regionalimmobilien24/regionalimmobilien24.site.yaml"),
    BundledSite(
      id: "rentfaster", bytes: PackageResources.rentfaster_site_yaml,
      file: "Sites/Rentfaster/rentfaster.site.yaml"),
    BundledSite(
      id: "rightmove", bytes: PackageResources.rightmove_site_yaml,
      file: "Sites/Rightmove/rightmove.site.yaml"),
    BundledSite(
      id: "schwarzesbrett", bytes: PackageResources.schwarzesbrett_site_yaml,
      file: "Sites/SchwarzesBrett/schwarzesbrett.site.yaml"),
    BundledSite(
      id: "sparkasse", bytes: PackageResources.sparkasse_site_yaml,
      file: "Sites/Sparkasse/sparkasse.site.yaml"),
    BundledSite(
      id: "sreality", bytes: PackageResources.sreality_site_yaml,
      file: "Sites/Sreality/sreality.site.yaml"),
    BundledSite(
      id: "subito", bytes: PackageResources.subito_site_yaml,
      file: "Sites/Subito/subito.site.yaml"),
    BundledSite(
      id: "tweedehands", bytes: PackageResources.tweedehands_site_yaml,
      file: "Sites/Tweedehands/tweedehands.site.yaml"),
    BundledSite(
      id: "vinted", bytes: PackageResources.vinted_site_yaml,
      file: "Sites/Vinted/vinted.site.yaml"),
    BundledSite(
      id: "wohnungsboerse", bytes: PackageResources.wohnungsboerse_site_yaml,
      file: "Sites/Wohnungsboerse/wohnungsboerse.site.yaml"),
  ]
}
