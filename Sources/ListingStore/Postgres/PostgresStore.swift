// Built with the trait PostgreSQL only (swift build --traits PostgreSQL).
#if PostgreSQL
  internal import ClarissaCore
  public import Foundation

  /// The listing store in PostgreSQL, shared by any number of workers: the run's operations are
  /// the SQLite store's (``ConnectedStore``, written once); what sharing adds is here
  /// (``SharedWork``): leases on sources, claimed deliveries, one pace per host, and the workers
  /// seen. The schema is made or upgraded once, under an advisory lock, however many workers
  /// start at the same moment; a worker older than the database's schema refuses to start.
  public final class PostgresStore: ConnectedStore, BrowsableStore, SharedWork, StoreSummary,
    @unchecked Sendable
  {
    // Holds the libpq connection (a C handle), used only in a turn of `turn`.
    /// The URL, password masked.
    public let url: String
    /// This worker's name.
    public let worker: String
    /// Seconds a worker holds what it took (sources, deliveries) before another may take it.
    public let lease: Double
    /// Whether requests keep one pace per host across workers.
    public let sharedPace: Bool
    let database: PostgresDatabase
    /// One caller at a time; again by the same one (see ``ConnectionTurn``).
    private let turn = ConnectionTurn()

    /// The advisory lock key under which the schema is made or upgraded (`clarissa` in ASCII).
    static let schemaLockKey = 0x63_6c_61_72_69_73_73_61

    private init(database: PostgresDatabase, worker: String, lease: Double, sharedPace: Bool) {
      self.database = database
      self.worker = worker
      self.lease = lease
      self.sharedPace = sharedPace
      url = database.shownURL
    }

    /// Connects to `url`, brings the schema up to date (once, whoever asks first) and records
    /// this worker; refuses a database whose schema is newer than this clarissa's.
    public static func open(
      url: String, password: String? = nil, worker: String = PostgresStore.defaultWorker,
      lease: Double = 300, sharedPace: Bool = true, registering: Bool = true
    ) throws -> PostgresStore {
      let database = try PostgresDatabase(url: url, password: password)
      try database.run("SELECT pg_advisory_lock($1)", [.int(schemaLockKey)])
      defer { try? database.run("SELECT pg_advisory_unlock($1)", [.int(schemaLockKey)]) }
      try database.execute(script: SchemaSteps.table(postgres: true))
      let version = try database.integer("SELECT coalesce(max(version), 0) FROM clarissa_schema")
      if version > PostgresSchema.current {
        throw StoreProblem(
          message: "the PostgreSQL store '\(database.shownURL)' is at schema version \(version), "
            + "newer than this clarissa reads (\(PostgresSchema.current)): another worker was "
            + "upgraded. Upgrade this one; the database was not changed")
      }
      // A store made before steps were recorded by name: its table gains the names' column.
      if try database.integer(
        "SELECT count(*) FROM pg_attribute WHERE attrelid = 'clarissa_schema'::regclass "
          + "AND attname = 'name' AND NOT attisdropped") == 0
      {
        try database.execute(script: "ALTER TABLE clarissa_schema ADD COLUMN name text")
      }
      let unnamed = try database.integer(
        "SELECT count(*) FROM clarissa_schema WHERE name IS NULL")
      if version < PostgresSchema.current || unnamed > 0 {
        try database.transaction {
          try SchemaSteps.migrate(
            database, steps: PostgresSchema.steps, version: version, now: Date(),
            execute: { try database.execute(script: $0) })
        }
      }
      let store = PostgresStore(
        database: database, worker: worker, lease: lease, sharedPace: sharedPace)
      // A reader (`state info`, a dry run) is no worker.
      if registering { try store.heartbeat(now: Date(), starting: true) }
      return store
    }

    /// `CLARISSA_WORKER`, else this machine's name and the process id.
    public static var defaultWorker: String {
      let environment = ProcessInfo.processInfo.environment
      if let name = environment["CLARISSA_WORKER"], !name.isEmpty { return name }
      return "\(ProcessInfo.processInfo.hostName)-\(getpid())"
    }

    /// This build's version, written beside each migration it made and each worker.
    static var clarissaVersion: String { SchemaSteps.clarissaVersion }

    /// The schema version of the database.
    public func schemaVersion() throws -> Int {
      try locked { try $0.integer("SELECT coalesce(max(version), 0) FROM clarissa_schema") }
    }

    /// The migrations made, oldest first: version, when, by which clarissa.
    public func migrations() throws -> [(version: Int, at: Date, by: String)] {
      try steps().map { ($0.version, $0.at, $0.by) }
    }

    /// The steps made, oldest first: version, name (nil: never named), when, by which clarissa.
    public func steps() throws -> [(version: Int, name: String?, at: Date, by: String)] {
      try locked { database in
        try database.rows(
          "SELECT version, name, migrated_at, by_clarissa FROM clarissa_schema ORDER BY version"
        ) {
          (
            $0.int(SchemaColumn.version), $0.optionalText(SchemaColumn.name),
            $0.date(SchemaColumn.migratedAt), $0.text(SchemaColumn.byClarissa)
          )
        }
      }
    }

    func locked<T>(_ body: (PostgresDatabase) throws -> T) throws -> T {
      try turn.run { try body(database) }
    }

    var deliveryClaim: DeliveryClaim? { DeliveryClaim(worker: worker, seconds: lease) }

    /// Pruned by one worker at a time: a worker that finds another pruning leaves it to it.
    @discardableResult
    public func prune(now: Date, retention: TimeInterval) throws -> StoreCounts {
      let key = StoreValue.int(Self.schemaLockKey + 1)
      guard try locked({ try $0.integer("SELECT pg_try_advisory_lock($1)::int", [key]) }) == 1
      else {
        return StoreCounts()
      }
      defer { _ = try? locked { try $0.run("SELECT pg_advisory_unlock($1)", [key]) } }
      var counts = try pruneRows(now: now, retention: retention)
      try locked { database in
        // Sources no search has asked for the retention (a search removed, a city dropped), and
        // workers gone for a week (a `run` from cron is a new worker each time, unless named).
        try database.run(
          "DELETE FROM leases WHERE done_at < $1", [.time(now.addingTimeInterval(-retention))])
        counts.add(database.changes, "leases")
        try database.run(
          "DELETE FROM workers w WHERE seen_at < $1 AND NOT EXISTS (SELECT 1 FROM leases l "
            + "WHERE l.worker = w.name AND l.done_at IS NULL)",
          [.time(now.addingTimeInterval(-7 * 86_400))])
        counts.add(database.changes, "workers")
      }
      return counts
    }

    /// What `state info` shows: the database, what it remembers, the workers and the leases.
    public func info(now: Date = Date()) throws -> StoreInfo {
      let cooldowns = Cooldown.active(try cooldowns(), at: now)
      let time = StoreValue.time(now)
      return try locked { database in
        try database.transaction {
          var info = StoreInfo(
            path: url,
            bytes: try database.integer("SELECT pg_database_size(current_database())"),
            schemaVersion: try database.integer("SELECT max(version) FROM clarissa_schema"),
            listings: try database.integer("SELECT count(*) FROM listings"),
            prices: try database.integer("SELECT count(*) FROM prices"),
            searches: try Self.searchInfo(database), channels: try Self.channelInfo(database),
            held: try database.integer("SELECT count(*) FROM held"), cooldowns: cooldowns)
          info.workers = try database.rows(
            """
            SELECT w.name, w.host, w.pid, w.version, w.started_at, w.seen_at,
              count(l.source) AS holding, min(l.taken_at) AS oldest_taken
            FROM workers w LEFT JOIN leases l
              ON l.worker = w.name AND l.done_at IS NULL AND l.until >= $1::float8
            GROUP BY w.name ORDER BY w.name
            """, [time]
          ) {
            StoreInfo.Worker(
              name: $0.text(WorkerColumn.name), host: $0.text(WorkerColumn.host),
              pid: $0.int(WorkerColumn.pid), version: $0.text(WorkerColumn.version),
              startedAt: $0.date(WorkerColumn.startedAt), seenAt: $0.date(WorkerColumn.seenAt),
              holding: $0.int(WorkerColumn.holding),
              oldestTaken: $0.optionalDate(WorkerColumn.oldestTaken))
          }
          info.leases = try database.rows(
            """
            SELECT count(*) AS sources,
              count(*) FILTER (WHERE done_at IS NULL AND worker IS NOT NULL AND until >= $1::float8)
                AS held,
              count(*) FILTER (WHERE done_at IS NULL AND worker IS NOT NULL AND until < $1::float8)
                AS lapsed,
              coalesce(sum(takeovers), 0) AS takeovers
            FROM leases
            """, [time]
          ) {
            StoreInfo.Leases(
              sources: $0.int(LeaseColumn.sources), held: $0.int(LeaseColumn.held),
              lapsed: $0.int(LeaseColumn.lapsed), takeovers: $0.int(LeaseColumn.takeovers))
          }
          .first
          return info
        }
      }
    }

    // MARK: - Sharing the work

    /// Records that this worker is alive (and, starting, who it is).
    private func heartbeat(now: Date, starting: Bool = false) throws {
      try locked { database in
        try database.run(
          "INSERT INTO workers(name, host, pid, version, started_at, seen_at) "
            + "VALUES($1, $2, $3, $4, $5, $5) ON CONFLICT(name) DO UPDATE SET seen_at = $5"
            + (starting
              ? ", host = excluded.host, pid = excluded.pid, version = excluded.version, "
                + "started_at = excluded.started_at" : ""),
          [
            .text(worker), .text(ProcessInfo.processInfo.hostName), .int(Int(getpid())),
            .text(Self.clarissaVersion), .time(now),
          ])
      }
    }

    public func take(_ wanted: [WantedSource], limit: Int, round: Date, now: Date) throws
      -> TakenSources
    {
      try heartbeat(now: now)
      guard !wanted.isEmpty, limit > 0 else { return TakenSources(keys: [], takeovers: 0) }
      let searches = StoreValue.textArray(wanted.map(\.key.search))
      let urls = StoreValue.textArray(wanted.map(\.key.url))
      let every = StoreValue.text(
        "{" + wanted.map { String($0.every) }.joined(separator: ",") + "}")
      return try locked { database in
        try database.transaction {
          try database.run(
            "INSERT INTO leases(search, source) SELECT * FROM unnest($1::text[], $2::text[]) "
              + "ON CONFLICT DO NOTHING", [searches, urls])
          // Free (never taken, or its worker's lease ran out) or done and due again when the
          // round began; rows another worker is taking at this moment are skipped, not waited
          // for.
          let rows = try database.rows(
            """
            UPDATE leases l SET worker = $4, taken_at = $5, until = $5::float8 + $6::float8,
              done_at = NULL, takeovers = l.takeovers + CASE WHEN free.lapsed THEN 1 ELSE 0 END
            FROM (
              SELECT k.search, k.source,
                (k.done_at IS NULL AND k.worker IS NOT NULL AND k.worker != $4) AS lapsed
              FROM leases k
              JOIN unnest($1::text[], $2::text[], $3::float8[]) AS w(search, source, every)
                ON k.search = w.search AND k.source = w.source
              WHERE (k.done_at IS NULL AND (k.worker IS NULL OR k.until < $5::float8))
                 OR (k.done_at IS NOT NULL AND k.done_at + w.every <= $8::float8)
              ORDER BY k.done_at NULLS FIRST, k.search, k.source
              LIMIT $7
              FOR UPDATE OF k SKIP LOCKED) free
            WHERE l.search = free.search AND l.source = free.source
            RETURNING l.search, l.source, free.lapsed
            """,
            [
              searches, urls, every, .text(worker), .time(now), .double(lease), .int(limit),
              .time(min(round, now)),
            ]
          ) {
            (
              SourceKey(search: $0.text(LeaseColumn.search), url: $0.text(LeaseColumn.source)),
              $0.flag(LeaseColumn.lapsed)
            )
          }
          return TakenSources(
            keys: rows.map(\.0).sorted(), takeovers: rows.filter(\.1).count)
        }
      }
    }

    public func finish(_ keys: [SourceKey], at now: Date) throws {
      guard !keys.isEmpty else { return }
      try locked { database in
        try database.run(
          "UPDATE leases l SET done_at = $3, until = $3 FROM unnest($1::text[], $2::text[]) "
            + "AS k(search, source) WHERE l.search = k.search AND l.source = k.source "
            + "AND l.worker = $4",
          [
            .textArray(keys.map(\.search)), .textArray(keys.map(\.url)),
            .time(now), .text(worker),
          ])
      }
    }

    public func renew(_ keys: [SourceKey], now: Date) throws {
      guard !keys.isEmpty else { return }
      try heartbeat(now: now)
      try locked { database in
        try database.run(
          "UPDATE leases l SET until = $3::float8 + $5::float8 FROM unnest($1::text[], $2::text[]) "
            + "AS k(search, source) WHERE l.search = k.search AND l.source = k.source "
            + "AND l.worker = $4 AND l.done_at IS NULL",
          [
            .textArray(keys.map(\.search)), .textArray(keys.map(\.url)), .time(now),
            .text(worker), .double(lease),
          ])
      }
    }

    public func liveWorkers(seenWithin seconds: Double, now: Date) throws -> Int {
      try locked {
        try $0.integer(
          "SELECT count(*) FROM workers WHERE seen_at >= $1::float8 - $2::float8",
          [.time(now), .double(max(seconds, lease))])
      }
    }

    public func reserve(host: String, spacing: Double, now: Date) throws -> PaceSlot {
      try locked { database in
        let row = try database.rows(
          """
          INSERT INTO host_pace(host, next_at) VALUES($1, $2::float8 + $3::float8)
          ON CONFLICT(host) DO UPDATE SET next_at = greatest(host_pace.next_at, $2::float8) + $3::float8
          RETURNING next_at - $3::float8 AS slot,
            (SELECT until FROM cooldowns c WHERE c.host = $1 AND c.until > $2::float8) AS until,
            (SELECT reason FROM cooldowns c WHERE c.host = $1) AS reason
          """, [.text(host), .time(now), .double(spacing)]
        ) {
          (
            $0.double(PaceColumn.slot), $0.optionalDouble(CooldownColumn.until),
            $0.text(CooldownColumn.reason)
          )
        }.first
        guard let row else { return .wait(0) }
        if let until = row.1 {
          return .cooling(
            Cooldown(until: Date(timeIntervalSince1970: until), reason: row.2 + " (another worker)")
          )
        }
        return .wait(max(0, row.0 - now.timeIntervalSince1970))
      }
    }

    public func hold(host: String, until: Date) throws {
      try locked { database in
        try database.run(
          "INSERT INTO host_pace(host, next_at) VALUES($1, $2) ON CONFLICT(host) DO UPDATE "
            + "SET next_at = greatest(host_pace.next_at, excluded.next_at)",
          [.text(host), .time(until)])
      }
    }
  }
#endif
