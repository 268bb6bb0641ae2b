public import ClarissaCore
internal import Foundation
public import SiteFormat
internal import Synchronization

/// A shipped definition, read the first time anything but its id is asked: every command starts
/// with the registry, and reading five definitions cost about 10 ms of each start (`clarissa
/// validate` on the bundled config went from 38 to 49 ms) for sites most configs never use.
final class BundledSite: FeedSource {
  let id: String
  /// Where the definition lives in the repository.
  let file: String
  private let bytes: [UInt8]
  /// The definition, read once, under the lock; after that only read.
  private let loaded = Mutex<Result<DeclaredSite, SiteError>?>(nil)

  init(id: String, bytes: [UInt8], file: String) {
    self.id = id
    self.bytes = bytes
    self.file = file
  }

  /// The definition read (a test checks that every shipped one reads without a problem).
  var site: Result<DeclaredSite, SiteError> {
    loaded.withLock { loaded in
      if let loaded { return loaded }
      let (definition, diagnostics) = DefinitionReader.read(bytes, file: file)
      let result: Result<DeclaredSite, SiteError> =
        definition.map { .success(DeclaredSite(definition: $0)) }
        ?? .failure(
          SiteError(
            "the shipped definition \(file) does not read: "
              + (diagnostics.first.map { "\($0.location.map { "\($0): " } ?? "")\($0.message)" }
                ?? "no reason given")))
      loaded = result
      return result
    }
  }

  private var declared: DeclaredSite? { try? site.get() }

  var displayName: String { declared?.displayName ?? id }
  var status: SiteStatus { declared?.status ?? .defunct }
  var summary: String {
    declared?.summary ?? ((try? site.get()) == nil ? "\(file) does not read" : "")
  }
  var parameters: [SiteParameter] { declared?.parameters ?? [] }
  var politeness: Politeness {
    declared?.politeness
      ?? Politeness(minimumDelay: 10, jitter: 5, concurrencyPerHost: 1, minimumInterval: 3600)
  }
  var cities: CityRule { declared?.cities ?? .unused }
  var defaultCity: String? { declared?.defaultCity }
  var modes: [String] { declared?.modes ?? ["page"] }
  var currency: String? { declared?.currency }
  var givesCoordinates: Bool { declared?.givesCoordinates ?? true }
  var idsUnique: Bool { declared?.idsUnique ?? false }
  var countries: [String] { declared?.countries ?? [] }
  var kind: SiteKind { declared?.kind ?? .marketplace }
  var wall: SiteWall { declared?.wall ?? SiteWall.none }
  var samples: [SiteSample] { declared?.samples ?? [] }

  func checkCity(_ name: String) -> NameCheck { declared?.checkCity(name) ?? .valid }
  func checkCategory(_ name: String) -> NameCheck { declared?.checkCategory(name) ?? .valid }
  func knownCities(matching filter: String?) -> [KnownCity] {
    declared?.knownCities(matching: filter) ?? []
  }
  func knownCategories(matching filter: String?) -> [KnownCity] {
    declared?.knownCategories(matching: filter) ?? []
  }
  func categoryMeaning(_ code: String) -> String? { declared?.categoryMeaning(code) }
  func readSearchURL(_ url: SearchURL) -> SearchURLReading? { declared?.readSearchURL(url) }
  var searchURLExamples: [SearchURLExample] { declared?.searchURLExamples ?? [] }

  func requests(for search: Search, in city: CityRef?) -> [RequestSpec] {
    declared?.requests(for: search, in: city) ?? []
  }

  func listings(from response: SourceResponse) throws -> ListingBatch {
    try site.get().listings(from: response)
  }

  func request(
    forSavedResponseIn mode: String, city: String?, parameters: [String: ParameterValue],
    url: String?
  ) -> RequestSpec {
    declared?.request(forSavedResponseIn: mode, city: city, parameters: parameters, url: url)
      ?? RequestSpec(url: url ?? "", mode: mode)
  }
}

extension DefinitionLoader {
  /// The definition file a declared site was read from; nil for a Swift site.
  public static func file(of site: any FeedSource) -> String? {
    (site as? DeclaredSite)?.definition.file ?? (site as? BundledSite)?.file
  }
}

extension BundledSite: HTMLPageReading {
  /// The definition's answer; false when it does not read.
  var readsHTMLPages: Bool { declared?.readsHTMLPages ?? false }
}
