import ArgumentParser
import ClarissaConfig
import Sites

/// `clarissa schema`: the JSON Schema of `searches.yaml`, for editors.
struct SchemaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract: "Print a JSON Schema of searches.yaml for editor completion and hover help.",
    discussion: """
      Save it and name it in the first line of searches.yaml; VS Code's YAML extension and \
      Neovim's yaml-language-server then complete keys and show what each one means.

        clarissa schema > searches.schema.json
        # yaml-language-server: $schema=./searches.schema.json
      """
  )

  func run() throws {
    Terminal.output(try ConfigSchema.text(sites: Registry.sites))
  }
}
