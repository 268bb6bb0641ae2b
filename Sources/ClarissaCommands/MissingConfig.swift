internal import Foundation

/// What a command says when its config file is not there: a newcomer's first command meets this
/// before anything else, so it names the folder looked in and the way out.
enum MissingConfig {
  /// Prints the message and exits 2 (as a config error) when nothing is at `path`; else returns.
  static func check(_ path: String) throws {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      if isFolder.boolValue {
        Terminal.error(
          "error: '\(path)' is a folder; pass the config file in it, as in "
            + "--config \((path as NSString).appendingPathComponent("searches.yaml"))\n")
        throw ExitStatus.configInvalid.exitCode
      }
      return
    }
    Terminal.error("error: \(message(path))\n")
    throw ExitStatus.configInvalid.exitCode
  }

  /// The message for a config that does not exist at `path`.
  static func message(_ path: String) -> String {
    let name = (path as NSString).lastPathComponent
    let folder = (path as NSString).deletingLastPathComponent
    let absolute =
      folder.hasPrefix("/")
      ? folder
      : URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL.path
    let option = path == "searches.yaml" ? "" : " --config \(path)"
    let elsewhere = path == "searches.yaml" ? ", or pass --config FILE" : ""
    return "no \(name) in \(absolute); run 'clarissa init\(option)' to write a starter one"
      + elsewhere
  }
}
