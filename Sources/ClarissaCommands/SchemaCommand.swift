internal import ArgumentParser
internal import Channels
internal import ClarissaConfig
internal import SiteFormat
internal import Sites

/// `clarissa schema [config|site]`: the JSON Schema of `searches.yaml` or of a site definition.
struct SchemaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract: "Print a JSON Schema of searches.yaml (or of a site definition) for editors.",
    discussion: """
      Save it and name it in the first line of the file; VS Code's YAML extension and \
      Neovim's yaml-language-server then complete keys and show what each one means.

        clarissa schema > searches.schema.json
        # yaml-language-server: $schema=./searches.schema.json
        clarissa schema site > site.schema.json     # for sites/*.yaml
      """
  )

  /// Which file's schema.
  enum Kind: String, ExpressibleByArgument, CaseIterable {
    case config, site
  }

  @Argument(help: "config (searches.yaml, the default) or site (a site definition).")
  var kind: Kind = .config

  func run() throws {
    switch kind {
    case .config:
      Terminal.output(try ConfigSchema.text(sites: Registry.sites, channels: ChannelRegistry.all))
    case .site: Terminal.output(try DefinitionSchema.text())
    }
  }
}
