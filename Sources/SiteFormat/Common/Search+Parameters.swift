internal import ClarissaCore

/// Reading a search's site parameters, for every adapter.
extension Search {
  /// A text or choice parameter's value.
  package func text(_ name: String) -> String? {
    if case .text(let value)? = parameters[name] { return value }
    return nil
  }

  /// A boolean parameter, false when unset.
  package func flag(_ name: String) -> Bool {
    if case .bool(let value)? = parameters[name] { return value }
    return false
  }
}
