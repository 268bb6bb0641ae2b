/// When a sighting or a listing was last seen, as every reader must read it. A run records "seen
/// now" once per search answer (`answers.answered_at`), not once per listing: a sighting in its
/// search's last answer (`in_answer`) was seen when that answer came; its own `last_seen` is the
/// time it was last seen outside one (written when it leaves the answer, or by an import).
/// A listing was last seen at the latest of its own `last_seen` (written when its fields change,
/// by an import, and when a search that saw it is forgotten) and its sightings'. SQL
/// expressions, the same in SQLite and PostgreSQL.
enum LastSeen {
  /// The later of two times, in words both engines read (SQLite's `max` is PostgreSQL's
  /// `greatest`): what a run writes never moves a time back, however late an older answer is
  /// recorded. A null `newer` keeps `stored`.
  static func later(_ stored: String, _ newer: String) -> String {
    "(CASE WHEN \(newer) > \(stored) THEN \(newer) ELSE \(stored) END)"
  }

  /// A sighting's last seen; `row` names a row of `sightings`.
  static func sighting(_ row: String) -> String {
    """
    (CASE WHEN \(row).in_answer THEN coalesce((SELECT a.answered_at FROM answers a \
    WHERE a.search = \(row).search), \(row).last_seen) ELSE \(row).last_seen END)
    """
  }

  /// A listing's last seen; `row` names a row of `listings`.
  static func listing(_ row: String) -> String {
    """
    (SELECT max(t) FROM (SELECT \(row).last_seen AS t UNION ALL SELECT \(sighting("m")) \
    FROM sightings m WHERE m.site = \(row).site AND m.id = \(row).id) AS seen)
    """
  }
}
