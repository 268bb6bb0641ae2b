internal import Foundation

/// `clarissa state check`: SQLite's own checks, then the store's rules.
extension ListingStore {
  /// Every problem found, one sentence each; empty when the store is sound. A file damaged
  /// beyond opening never gets here: ``open(path:readOnly:busyTimeout:)`` refuses it.
  public func check() throws -> [String] {
    try locked { database in
      try Self.snapshot(database) {
        var problems = try database.rows("PRAGMA integrity_check") {
          $0.text(PragmaColumn.integrityCheck)
        }
        .filter { $0 != "ok" }
        .map { "sqlite integrity check: \($0)" }
        problems += try database.rows("PRAGMA foreign_key_check") {
          "sqlite foreign key check: a row of '\($0.text(PragmaColumn.table))' refers to a "
            + "missing '\($0.text(PragmaColumn.parent))'"
        }
        // A damaged page can make the rules' queries fail: what SQLite found says enough.
        guard problems.isEmpty else { return problems }
        let version = try database.integer("PRAGMA user_version")
        if version != StoreSchema.current {
          problems.append(
            "schema version \(version), where this clarissa writes \(StoreSchema.current)")
        }
        problems += try database.broken(StoreRule.shared)
        return problems
      }
    }
  }
}

/// The columns of SQLite's checks: `integrity_check`'s one, and `foreign_key_check`'s table and
/// the parent table it refers to.
private enum PragmaColumn: String, TableColumns {
  case integrityCheck = "integrity_check", table, parent
}
