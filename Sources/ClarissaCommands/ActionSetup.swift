internal import ActionKeys
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation

/// Where the key that signs the buttons' links lives, and the links made with it.
extension SourceOptions {
  /// `serve.key_file` (relative to the config's folder), else `clarissa-actions.key` beside
  /// the state database, else (a PostgreSQL store has no folder) in the config's folder.
  func actionKeyPath(_ serve: ServeSettings?, statePath: String) -> String {
    if let file = serve?.keyFile { return resolve(file) }
    if StoreAccess.isURL(statePath) { return resolve(ActionKey.fileName) }
    let folder = (StoreAccess.locate(statePath).database as NSString).deletingLastPathComponent
    return folder.isEmpty
      ? ActionKey.fileName : (folder as NSString).appendingPathComponent(ActionKey.fileName)
  }

  /// Where `/act` keeps the tokens used (each acts once): beside the key, `.used` for its
  /// extension (`clarissa-actions.used`).
  func usedActionsPath(_ serve: ServeSettings?, statePath: String) -> String {
    (actionKeyPath(serve, statePath: statePath) as NSString).deletingPathExtension + ".used"
  }

  /// The key `/act` checks links with: made on first need when `serve.url` is set; else the
  /// one there is, if any (links sent before `serve.url` was removed still work).
  func servedActionKey(_ serve: ServeSettings?, statePath: String) throws -> ActionKey? {
    let path = actionKeyPath(serve, statePath: statePath)
    return try Self.failing {
      serve?.url == nil ? try ActionKey.read(path) : try ActionKey.loadOrCreate(at: path)
    }
  }

  /// The links the messages' buttons carry; nil without `serve.url` (no buttons). The key is
  /// made on first need.
  func actionLinks(_ configuration: Config) throws -> ActionLinks? {
    guard let serve = configuration.serve, let url = serve.url else { return nil }
    let path = actionKeyPath(serve, statePath: statePath(configuration))
    let key = try Self.failing { try ActionKey.loadOrCreate(at: path) }
    return ActionLinks(base: url, key: key, lifetime: serve.actionExpiry.timeInterval)
  }

  private static func failing<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let problem as ActionKey.Problem {
      // The state folder is not writable, or the key file is damaged: messages without their
      // buttons would be a silent loss, so the run stops and says why.
      Terminal.error("clarissa: \(problem.description)\n")
      throw ExitStatus.stateUnusable.exitCode
    }
  }
}
