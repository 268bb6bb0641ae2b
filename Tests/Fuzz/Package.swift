// swift-tools-version: 6.1
// libFuzzer targets for clarissa's readers. Built apart from the main package because libFuzzer
// supplies `main`; run them with .ci/fuzz.
import PackageDescription

let fuzzerFlags: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])]
let linkerFlags: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

func fuzzer(_ name: String) -> Target {
  .executableTarget(
    name: name,
    dependencies: ["FuzzSupport", .product(name: "ClarissaReaders", package: "main")],
    swiftSettings: fuzzerFlags,
    linkerSettings: linkerFlags)
}

let package = Package(
  name: "clarissa-fuzz",
  dependencies: [.package(name: "main", path: "../..")],
  targets: [
    .target(
      name: "FuzzSupport", dependencies: [.product(name: "ClarissaReaders", package: "main")])
  ]
    + ["fuzz-yaml", "fuzz-config", "fuzz-feeds", "fuzz-sapi", "fuzz-html", "fuzz-answers"].map(
      fuzzer),
  swiftLanguageModes: [.v6]
)
