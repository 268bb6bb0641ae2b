import ClarissaCore

/// The explicit list of site adapters (Swift has no runtime discovery). Adding a site adds one
/// line here; nothing under `Sources/` changes.
public enum Registry {
  /// Every adapter, in the order `clarissa sites` lists them.
  public static let sites = SiteCatalog([
    CraigslistSite(),
    GenericFeedSite(),
    OodleSite(),
    BackpageSite(),
  ])
}
