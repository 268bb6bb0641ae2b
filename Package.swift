// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// What in Sites/ is not Swift source: each site folder's README.md, and Craigslist's `Tables/`
/// (the script that regenerates its area and category tables). Found rather than listed, so a
/// new site folder needs no line here for them (a declared site's definition does: see below).
let siteDocuments: [String] = {
  let sites = Context.packageDirectory + "/Sites"
  let folders = (try? FileManager.default.contentsOfDirectory(atPath: sites)) ?? []
  return folders.sorted().flatMap { folder in
    ["README.md", "Tables"].map { "\(folder)/\($0)" }
      .filter { FileManager.default.fileExists(atPath: "\(sites)/\($0)") }
  }
}()

/// The site definitions the project ships, compiled into the program (`PackageResources.
/// <id>_site_yaml`, named in Sites/Registry.swift) so that it needs no files beside it. Listed
/// here rather than found: SwiftPM caches this manifest and would not see a new file. (SwiftPM
/// names an embedded file by its file name alone, so each carries its site's id.)
let siteDefinitions: [Resource] = [
  "Kleinanzeigen/kleinanzeigen.site.yaml",
  "Willhaben/willhaben.site.yaml",
  "Immoscout/immoscout.site.yaml",
  "Flatfox/flatfox.site.yaml",
  "WgGesucht/wg-gesucht.site.yaml",
  "AutoScout24De/autoscout24-de.site.yaml",
  "AutotraderUK/autotrader-uk.site.yaml",
  "Bazos/bazos.site.yaml",
  "Daft/daft.site.yaml",
  "DeutscheWohnen/deutsche-wohnen.site.yaml",
  "EinsaImmobilien/einsa-immobilien.site.yaml",
  "EngelVoelkers/engel-voelkers.site.yaml",
  "Funda/funda.site.yaml",
  "Homegate/homegate.site.yaml",
  "IdealistaES/idealista-es.site.yaml",
  "Idealista/idealista.site.yaml",
  "Imaxx/imaxx.site.yaml",
  "ImmobilienDe/immobilien-de.site.yaml",
  "Immoswp/immoswp.site.yaml",
  "InBerlinWohnen/inberlinwohnen.site.yaml",
  "Kijiji/kijiji.site.yaml",
  "Marktplaats/marktplaats.site.yaml",
  "McMakler/mcmakler.site.yaml",
  "Nehnutelnosti/nehnutelnosti.site.yaml",
  "Neubaukompass/neubaukompass.site.yaml",
  "OhneMakler/ohne-makler.site.yaml",
  "OlxPl/olx-pl.site.yaml",
  "OlxUa/olx-ua.site.yaml",
  "Pararius/pararius.site.yaml",
  "RealityCz/reality-cz.site.yaml",
  "RealitySk/reality-sk.site.yaml",
  "Regionalimmobilien24/regionalimmobilien24.site.yaml",
  "Rentfaster/rentfaster.site.yaml",
  "Rightmove/rightmove.site.yaml",
  "SchwarzesBrett/schwarzesbrett.site.yaml",
  "Sparkasse/sparkasse.site.yaml",
  "Sreality/sreality.site.yaml",
  "Subito/subito.site.yaml",
  "Tweedehands/tweedehands.site.yaml",
  "Vinted/vinted.site.yaml",
  "Wohnungsboerse/wohnungsboerse.site.yaml",
].map { .embedInCode($0) }

let package = Package(
  name: "clarissa",
  // macOS 15: Synchronization's Mutex, the one lock type, is there from 15 on (Linux: no limit).
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "clarissa", targets: ["clarissa"]),
    .executable(name: "clarissa-bench", targets: ["clarissa-bench"]),
    // For the fuzzers in Tests/Fuzz (a package of their own: libFuzzer brings its own main).
    .library(
      name: "ClarissaReaders",
      targets: [
        "YAML", "ClarissaCore", "Geography", "ClarissaConfig", "Markup", "Feeds", "SiteFormat",
        "Sites", "ListingText", "ListingStore", "Curl", "Channels", "ClarissaEngine",
      ]),
  ],
  // `swift build --traits PostgreSQL`: the store several workers share in PostgreSQL (needs
  // Debian's libpq-dev). The default build has no PostgreSQL in it.
  traits: [
    .trait(
      name: "PostgreSQL",
      description: "The PostgreSQL listing store for several workers (libpq: Debian libpq-dev)")
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // The web server's HTTP stack (NIOHTTP1 directly, not Hummingbird: docs/serve.md).
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
  ],
  targets: [
    // MARK: - C libraries from the system (Debian: apt-get install libyaml-dev libxml2-dev
    // libcurl4-openssl-dev libsqlite3-dev libturbojpeg0-dev libpng-dev libwebp-dev; libpq-dev for
    // the trait PostgreSQL)
    .systemLibrary(
      name: "CLibYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),

    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
    ),

    .systemLibrary(
      name: "CLibCurl",
      pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
    ),
    // libsqlite3 keeps what clarissa has seen (Debian libsqlite3-dev, `pkg-config sqlite3`). Not
    // GRDB: it adds 25 s to a debug build and 79 s to a release build here, and on Linux it is
    // itself a wrapper over this same library; the store's statements are fixed text.
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // libpq, PostgreSQL's own client library (Debian libpq-dev), for the store that several
    // workers share (issue 16), built only with the trait PostgreSQL. Not postgres-nio: it
    // adds 1,100 build steps (BoringSSL among them) and an async API to a synchronous store.
    .systemLibrary(
      name: "CPostgres",
      pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
    ),
    // The photo decoders, used by Photos only (issue 43): libjpeg-turbo's TurboJPEG API (DCT
    // scaling, errors returned rather than longjmp), libpng's simplified API, libwebp.
    .systemLibrary(
      name: "CTurboJPEG",
      pkgConfig: "libturbojpeg",
      providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]
    ),
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
    ),
    .systemLibrary(
      name: "CWebP",
      pkgConfig: "libwebp",
      providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
    ),
    // OpenSSL 3's libcrypto (Debian libssl-dev), used by WebPush only (issue 45): the one
    // libcurl already links, so it adds no library to the program and no build step. Not
    // swift-crypto: its BoringSSL adds 1 to 1.5 minutes to a first build here.
    .systemLibrary(
      name: "COpenSSL",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
    ),

    // MARK: - Readers: YAML node tree with positions; XML and HTML through libxml2; feeds
    .target(name: "YAML", dependencies: ["CLibYAML"]),
    .target(name: "Markup", dependencies: ["CLibXML2"]),
    .target(name: "Feeds", dependencies: ["Markup", "ClarissaCore"]),

    // MARK: - The vocabulary shared by everything else (docs/architecture.md: what may enter)
    .target(name: "ClarissaCore"),

    // MARK: - Geography: GeoJSON areas read, distances worded
    .target(name: "Geography", dependencies: ["ClarissaCore"]),

    // MARK: - The action key (a file in the state folder), signed button tokens, HMAC-SHA256
    .target(name: "ActionKeys", dependencies: ["ClarissaCore"]),

    // MARK: - The delivery trace (CLARISSA_DELIVERY_TRACE): a file appended to, for .ci/crashes
    .target(name: "Tracing"),

    // MARK: - Description HTML made plain text on demand (listings arrive with it pending)
    .target(name: "ListingText", dependencies: ["ClarissaCore", "Markup"]),

    // MARK: - searches.yaml -> Config, every problem a located Diagnostic
    .target(name: "ClarissaConfig", dependencies: ["ClarissaCore", "Geography", "YAML"]),

    // MARK: - What site adapters are made of: the site-definition interpreter (Definition/: a
    // declared site's YAML read, its requests made, its answers read) and the helpers every
    // adapter shares (Common/: prices in text, query strings, feed items to listings)
    .target(
      name: "SiteFormat",
      dependencies: ["ClarissaCore", "Feeds", "Markup", "ListingText", "YAML"]),

    // MARK: - Site adapters: one folder per site, listed in Sites/Registry.swift
    .target(
      name: "Sites",
      dependencies: ["ClarissaCore", "SiteFormat", "Feeds", "Markup"],
      path: "Sites",
      exclude: siteDocuments,
      resources: siteDefinitions
    ),

    // MARK: - What clarissa remembers: the listing store (SQLite; PostgreSQL behind the trait),
    // the listing memory a run judges with, fingerprints, cool-downs, work shared by workers
    .target(
      name: "ListingStore",
      dependencies: [
        "ClarissaCore", "Tracing", "CSQLite",
        .target(name: "CPostgres", condition: .when(traits: ["PostgreSQL"])),
      ]),

    // MARK: - What people read of the store, worded once for the engine's messages and reports
    // and for the web page: deal context, a refused host's advice, a report's times
    .target(name: "Presentation", dependencies: ["ClarissaCore", "ListingStore"]),

    // MARK: - Photos: JPEG, PNG and WebP decoded within limits, and a picture's difference hash
    // (dhash) on Pillow-exact grey and Lanczos resize
    .target(
      name: "Photos", dependencies: ["CTurboJPEG", "CPNG", "CWebP"], exclude: ["README.md"]),

    // MARK: - Web Push (issue 45): VAPID keys and JWT (RFC 8292), aes128gcm (RFC 8291), a
    // subscription's keys checked on the curve
    .target(name: "WebPush", dependencies: ["ClarissaCore", "COpenSSL"]),

    // MARK: - The network door: libcurl wrapped once (the Fetcher, CurlFetcher, SMTP)
    .target(name: "Curl", dependencies: ["ClarissaCore", "CLibCurl", "Tracing"]),

    // MARK: - Channel kinds: one file per kind (Kinds/), its declaration and its sender, listed
    // in Sources/Channels/Registry.swift; what several kinds share (Delivery/)
    .target(
      name: "Channels",
      dependencies: [
        "ClarissaCore", "Curl", "ListingStore", "Presentation", "Geography", "ActionKeys",
        "Tracing", "WebPush",
      ]),

    // MARK: - The run: politeness (Fetching/), the pipeline (Run/), delivery (Delivery/) and
    // reports (Reports/)
    .target(
      name: "ClarissaEngine",
      dependencies: [
        "ClarissaCore", "ListingStore", "Presentation", "Geography", "ListingText", "Curl",
        "Channels",
      ]),

    // MARK: - `clarissa serve`: a small HTTP/1.1 server on SwiftNIO, and the pages and API over
    // the store
    .target(
      name: "WebServer",
      dependencies: [
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
    // The pages' style sheet and scripts, files of Sources/Serve/Assets/ compiled into the program
    // (`PackageResources.style_css`, `app_js`, `map_js`: Sources/Serve/Assets.swift).
    .target(
      name: "Serve",
      dependencies: [
        "ClarissaCore", "ListingStore", "Presentation", "Geography", "ActionKeys", "WebServer",
        "WebPush",
      ],
      resources: (["style.css", "app.js", "map.js"]
        // The installable app's files (Sources/Serve/AppAssets.swift; icons: .ci/draw-icons).
        + [
          "manifest.webmanifest", "sw.js", "push.js", "panes.js", "layouts.css",
          "icons/icon-192.png", "icons/icon-512.png", "icons/icon-maskable-512.png",
          "icons/apple-touch-icon.png", "icons/badge-96.png",
        ]).map { .embedInCode("Assets/\($0)") }),

    // MARK: - The command line: thin commands over the layers above
    .target(
      name: "ClarissaCommands",
      dependencies: [
        "ClarissaCore", "ClarissaConfig", "ClarissaEngine", "Channels", "Curl", "ListingStore",
        "Presentation", "Geography", "ActionKeys", "Sites", "SiteFormat", "ListingText", "Serve",
        "WebServer", "YAML", "Photos",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "clarissa", dependencies: ["ClarissaCommands"]),

    // MARK: - Benchmarks that print figures (swift build -c release; .build/release/clarissa-bench)
    .executableTarget(
      name: "clarissa-bench",
      dependencies: [
        "YAML", "ClarissaConfig", "ClarissaCore", "ClarissaEngine", "Channels",
        "ListingStore", "Sites", "SiteFormat", "Feeds", "Markup", "ListingText", "Serve",
        "WebServer", "Photos", "WebPush",
      ]),

    // MARK: - Tests (Swift Testing); fixtures live in Fixtures/ at the top level
    .target(
      name: "FixtureSupport",
      dependencies: [
        "WebServer", "ClarissaCore", "ClarissaEngine", "Curl", "ListingStore", "Presentation",
        "Sites", "ListingText", "ClarissaConfig",
      ],
      path: "Tests/FixtureSupport"),
    .testTarget(name: "YAMLTests", dependencies: ["YAML"]),
    .testTarget(name: "MarkupTests", dependencies: ["Markup", "FixtureSupport"]),
    .testTarget(name: "FeedsTests", dependencies: ["Feeds", "Markup", "FixtureSupport"]),
    .testTarget(name: "ClarissaCoreTests", dependencies: ["ClarissaCore", "FixtureSupport"]),
    .testTarget(
      name: "GeographyTests", dependencies: ["Geography", "ClarissaCore", "FixtureSupport"]),
    .testTarget(name: "ActionKeysTests", dependencies: ["ActionKeys", "ClarissaCore"]),
    .testTarget(name: "TracingTests", dependencies: ["Tracing"]),
    .testTarget(name: "WebPushTests", dependencies: ["WebPush", "ClarissaCore"]),
    .testTarget(name: "ListingTextTests", dependencies: ["ListingText", "ClarissaCore"]),
    .testTarget(
      name: "SiteFormatTests",
      dependencies: ["SiteFormat", "ClarissaCore", "Feeds", "Sites", "FixtureSupport"]),
    // The PostgreSQL store's tests are compiled with the trait PostgreSQL (`#if PostgreSQL`).
    .testTarget(
      name: "ListingStoreTests", dependencies: ["ListingStore", "ClarissaCore", "FixtureSupport"]),
    .testTarget(
      name: "PresentationTests",
      dependencies: ["Presentation", "ListingStore", "ClarissaCore", "FixtureSupport"]),
    .testTarget(
      name: "CurlTests",
      dependencies: ["Curl", "ClarissaCore", "ClarissaEngine", "ListingStore", "FixtureSupport"]),
    .testTarget(
      name: "ClarissaConfigTests",
      dependencies: [
        "ClarissaConfig", "ClarissaCore", "Sites", "Channels", "FixtureSupport", "YAML",
      ]),
    .testTarget(
      name: "ClarissaEngineTests",
      dependencies: [
        "ClarissaEngine", "ClarissaCore", "Channels", "Curl", "ListingStore", "Presentation",
        "Geography", "ActionKeys", "ClarissaConfig", "Sites", "SiteFormat", "Feeds", "Markup",
        "YAML", "FixtureSupport", "WebServer", "WebPush",
      ]),
    .testTarget(
      name: "ChannelsTests",
      dependencies: ["Channels", "ClarissaCore"]),
    .testTarget(
      name: "SitesTests",
      dependencies: [
        "Sites", "SiteFormat", "ClarissaCore", "ClarissaConfig", "Channels", "Feeds", "Markup",
        "ListingText", "FixtureSupport",
      ]),
    // Compares with Pillow and imagehash through pillow-agreement.py (a Python from .build/venv).
    .testTarget(
      name: "PhotosTests", dependencies: ["Photos", "FixtureSupport"],
      exclude: ["pillow-agreement.py"]),
    .testTarget(name: "WebServerTests", dependencies: ["WebServer", "FixtureSupport"]),
    .testTarget(
      name: "ServeTests",
      dependencies: [
        "Serve", "WebServer", "ListingStore", "ClarissaCore", "ClarissaEngine", "Geography",
        "ActionKeys", "Presentation", "FixtureSupport",
      ]),
    .testTarget(
      name: "ClarissaCommandsTests",
      dependencies: [
        "ClarissaCommands", "ClarissaCore", "ClarissaEngine", "Channels", "ListingStore",
        "ActionKeys", "Sites", "WebServer", "Presentation", "Serve", "clarissa", "FixtureSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

/// Swift settings of every target whose code is in Sources/ or Sites/: a file sees the members of
/// the modules it imports itself, not of those another file of its module imports (issue 42).
let sourceSwiftSettings: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

for target in package.targets
where target.type != .system && target.type != .test && target.path?.hasPrefix("Tests") != true {
  target.swiftSettings = (target.swiftSettings ?? []) + sourceSwiftSettings
}
