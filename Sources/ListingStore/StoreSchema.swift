/// The SQLite store's tables, as its steps of ``SchemaSteps/all``: step `n` takes a database from
/// schema version `n` (SQLite's `user_version`) to `n + 1`, and is recorded by name in
/// `clarissa_schema`. Later versions append; nothing is ever edited in place, so every earlier
/// database upgrades the same way.
enum StoreSchema {
  /// The version this build writes.
  static var current: Int { steps.count }

  /// The steps, in order: each one's name and SQL.
  static let steps = SchemaSteps.steps(postgres: false)

  /// Each step's SQL, in order.
  static var migrations: [String] { steps.map(\.sql) }

  /// The tops of prices, rooms and floor areas given as ranges (issue 41), from
  /// ``ListingField/all``.
  static let version17 = ListingColumns.added(in: 17, postgres: false)

  /// Times are seconds since 1970 (REAL). A listing is known by its key (site, id).
  static let version1 = """
    CREATE TABLE searches(
      name TEXT PRIMARY KEY,
      last_run REAL,
      last_attempt REAL,
      -- 1: imported from a state that did not keep sources: every source counts as known
      all_sources_known INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;

    -- The request URLs of a search that have answered at least once.
    CREATE TABLE sources(
      search TEXT NOT NULL,
      url TEXT NOT NULL,
      PRIMARY KEY(search, url)
    ) WITHOUT ROWID;

    -- Every listing as last seen: its key, its facts (ListingField.all), when it was seen.
    CREATE TABLE listings(
      site TEXT NOT NULL,
      id TEXT NOT NULL,
    \(ListingColumns.created(postgres: false))
      first_seen REAL NOT NULL,
      last_seen REAL NOT NULL,
      PRIMARY KEY(site, id)
    );
    CREATE INDEX listings_last_seen ON listings(last_seen);

    -- Every price a listing was seen at: a row when it first had one, and on every change.
    CREATE TABLE prices(
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      seen_at REAL NOT NULL,
      price REAL NOT NULL,
      currency TEXT,
      PRIMARY KEY(site, id, seen_at)
    ) WITHOUT ROWID;

    -- Which searches saw a listing, first and last.
    CREATE TABLE sightings(
      search TEXT NOT NULL,
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      first_seen REAL NOT NULL,
      last_seen REAL NOT NULL,
      PRIMARY KEY(search, site, id)
    ) WITHOUT ROWID;
    CREATE INDEX sightings_last_seen ON sightings(last_seen);
    CREATE INDEX sightings_listing ON sightings(site, id);

    -- Per listing of a search and channel: owed, delivered, or failed (with attempts).
    CREATE TABLE deliveries(
      search TEXT NOT NULL,
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      channel TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('owed', 'delivered', 'failed')),
      owed_at REAL NOT NULL,
      at REAL,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      UNIQUE(search, site, id, channel)
    );
    CREATE INDEX deliveries_open ON deliveries(state) WHERE state != 'delivered';

    -- Listings found in a `hold` quiet-hours window, waiting for its end.
    CREATE TABLE held(
      search TEXT NOT NULL,
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      held_at REAL NOT NULL,
      PRIMARY KEY(search, site, id)
    ) WITHOUT ROWID;

    -- What the Atom feeds and the HTML page show.
    CREATE TABLE recent(
      search TEXT NOT NULL,
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      found REAL NOT NULL,
      UNIQUE(search, site, id)
    );
    CREATE INDEX recent_found ON recent(search, found);

    CREATE TABLE validators(
      url TEXT PRIMARY KEY,
      etag TEXT,
      last_modified TEXT
    ) WITHOUT ROWID;

    CREATE TABLE cooldowns(
      host TEXT PRIMARY KEY,
      until REAL NOT NULL,
      reason TEXT NOT NULL,
      since REAL,
      status INTEGER,
      answer TEXT,
      urls TEXT
    ) WITHOUT ROWID;
    """

  /// Reposts: a listing's fingerprint (the same item under another id) and its image ids, and
  /// per sighting the listing it repeats for that search.
  static let version2 = """
    ALTER TABLE listings ADD COLUMN fingerprint TEXT;
    CREATE INDEX listings_fingerprint ON listings(site, fingerprint);

    -- The site's image ids of a listing (Craigslist's survive a repost).
    CREATE TABLE listing_images(
      site TEXT NOT NULL,
      image TEXT NOT NULL,
      id TEXT NOT NULL,
      PRIMARY KEY(site, image, id)
    ) WITHOUT ROWID;
    CREATE INDEX listing_images_listing ON listing_images(site, id);

    -- The id (same site) of the listing this sighting repeats: a repost or a cross-post.
    ALTER TABLE sightings ADD COLUMN repost_of TEXT;
    """

  /// Changes announced: a sighting's price last announced, and deliveries per event (a price
  /// drop is delivered again to a channel that took the listing when it was new).
  static let version3 = """
    ALTER TABLE sightings ADD COLUMN announced_price REAL;
    UPDATE sightings SET announced_price =
      (SELECT price FROM listings l WHERE l.site = sightings.site AND l.id = sightings.id);

    CREATE TABLE deliveries_3(
      search TEXT NOT NULL,
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      channel TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('owed', 'delivered', 'failed')),
      owed_at REAL NOT NULL,
      at REAL,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_error TEXT,
      -- new, price_drop, price_rise, back; with the price before, and when it happened (0: new)
      event TEXT NOT NULL DEFAULT 'new',
      old_price REAL,
      event_at REAL NOT NULL DEFAULT 0,
      UNIQUE(search, site, id, channel, event_at)
    );
    INSERT INTO deliveries_3(search, site, id, channel, state, owed_at, at, attempts, last_error)
      SELECT search, site, id, channel, state, owed_at, at, attempts, last_error FROM deliveries
      ORDER BY rowid;
    DROP TABLE deliveries;
    ALTER TABLE deliveries_3 RENAME TO deliveries;
    CREATE INDEX deliveries_open ON deliveries(state) WHERE state != 'delivered';
    """

  /// What the Atom feeds and the page show of a change: a recent row's event and the price
  /// before (null for a listing shown because it was new); the posts folded into a listing,
  /// found from it (a message names them).
  static let version4 = """
    ALTER TABLE recent ADD COLUMN event TEXT;
    ALTER TABLE recent ADD COLUMN old_price REAL;
    CREATE INDEX sightings_repost_of ON sightings(search, site, repost_of)
      WHERE repost_of IS NOT NULL;
    """

  /// Viewed: when a person opened the listing (`clarissa serve`, `listings --mark-viewed`); the
  /// index finds the unviewed of a search without reading the others.
  static let version5 = """
    ALTER TABLE listings ADD COLUMN viewed_at REAL;
    CREATE INDEX listings_unviewed ON listings(site, id) WHERE viewed_at IS NULL;
    """

  /// `clarissa serve`: each search's last failures; a search's listings newest first (and all searches' together) by index,
  /// and each search's count of unviewed listings kept by triggers, so that neither a page nor
  /// the searches' counts reads a search's whole history. A sighting counts as unviewed unless
  /// its listing is known and viewed, which makes the triggers independent of the order in
  /// which a run, an import or a prune writes sightings and listings. `clarissa state check`
  /// recounts and compares.
  static let version6 = """
    -- The last run's failed sources of each search (a JSON list; null when none failed).
    ALTER TABLE searches ADD COLUMN last_failures TEXT;

    CREATE INDEX sightings_search_first_seen ON sightings(search, first_seen);
    CREATE INDEX sightings_first_seen ON sightings(first_seen);

    CREATE TABLE unviewed(
      search TEXT PRIMARY KEY,
      count INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO unviewed(search, count)
      SELECT s.search, count(*) FROM sightings s WHERE NOT EXISTS (SELECT 1 FROM listings l
        WHERE l.site = s.site AND l.id = s.id AND l.viewed_at IS NOT NULL)
      GROUP BY s.search;

    CREATE TRIGGER unviewed_sighting_added AFTER INSERT ON sightings
      WHEN NOT EXISTS (SELECT 1 FROM listings l
        WHERE l.site = NEW.site AND l.id = NEW.id AND l.viewed_at IS NOT NULL)
    BEGIN
      INSERT INTO unviewed(search, count) VALUES(NEW.search, 1)
        ON CONFLICT DO UPDATE SET count = count + 1;
    END;
    CREATE TRIGGER unviewed_sighting_removed AFTER DELETE ON sightings
      WHEN NOT EXISTS (SELECT 1 FROM listings l
        WHERE l.site = OLD.site AND l.id = OLD.id AND l.viewed_at IS NOT NULL)
    BEGIN
      UPDATE unviewed SET count = count - 1 WHERE search = OLD.search;
    END;
    CREATE TRIGGER unviewed_listing_viewed AFTER UPDATE OF viewed_at ON listings
      WHEN (OLD.viewed_at IS NULL) != (NEW.viewed_at IS NULL)
    BEGIN
      UPDATE unviewed SET count = count + (CASE WHEN NEW.viewed_at IS NULL THEN 1 ELSE -1 END)
        WHERE search IN (SELECT search FROM sightings s WHERE s.site = NEW.site AND s.id = NEW.id);
    END;
    CREATE TRIGGER unviewed_listing_added AFTER INSERT ON listings
      WHEN NEW.viewed_at IS NOT NULL
    BEGIN
      UPDATE unviewed SET count = count - 1
        WHERE search IN (SELECT search FROM sightings s WHERE s.site = NEW.site AND s.id = NEW.id);
    END;
    CREATE TRIGGER unviewed_listing_removed AFTER DELETE ON listings
      WHEN OLD.viewed_at IS NOT NULL
    BEGIN
      UPDATE unviewed SET count = count + 1
        WHERE search IN (SELECT search FROM sightings s WHERE s.site = OLD.site AND s.id = OLD.id);
    END;
    """

  /// A listing's content hash (``ListingField/contentHash(_:)``): a run that sees a listing
  /// again compares it and, when it is equal, writes only when the listing was seen (no fields,
  /// photos or price rows). Null (an import, an older store) makes the next sighting write all.
  static let version7 = """
    ALTER TABLE listings ADD COLUMN content_hash TEXT;
    """

  /// Last seen per answer (``LastSeen``): each search's last answer, when it came; a sighting in
  /// it is seen then, so that a poll whose answer holds the same listings writes one row. Only
  /// sightings outside an answer are found by their own time (the partial index); those in one
  /// by their search.
  static let version8 = """
    CREATE TABLE answers(
      search TEXT PRIMARY KEY,
      answered_at REAL NOT NULL
    ) WITHOUT ROWID;
    ALTER TABLE sightings ADD COLUMN in_answer INTEGER NOT NULL DEFAULT 0;
    DROP INDEX sightings_last_seen;
    CREATE INDEX sightings_last_seen ON sightings(last_seen) WHERE NOT in_answer;
    CREATE INDEX sightings_answer ON sightings(search) WHERE in_answer;
    """

  /// What a listing describes (issue 27): rooms, bedrooms, bathrooms, floor area and its unit,
  /// postcode, address and the site's other facts, from ``ListingField/all``.
  static let version9 = ListingColumns.added(in: 9, postgres: false)

  /// The geocoder's answers (``GeocoderSettings``): an address's coordinates, or none found
  /// (null), when asked; what is kept is asked again only after `retryNotFound` when nothing
  /// was found.
  static let version10 = """
    CREATE TABLE geocodes(
      query TEXT PRIMARY KEY,
      latitude REAL,
      longitude REAL,
      asked_at REAL NOT NULL
    ) WITHOUT ROWID;
    """

  /// `clarissa serve`'s map (`/map`): the listings that have coordinates, found without reading
  /// the others when they are few (``ConnectedStore/mapped(_:)``).
  static let version11 = """
    CREATE INDEX listings_located ON listings(site, id) WHERE latitude IS NOT NULL;
    """

  /// Cross-site folding (``SameFlat``): a listing found to be the same flat as one on another
  /// site, recorded when it was found. Read both ways (a's page names b, b's names a).
  static let version12 = """
    CREATE TABLE cross_posts(
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      other_site TEXT NOT NULL,
      other_id TEXT NOT NULL,
      found_at REAL NOT NULL,
      PRIMARY KEY(site, id, other_site, other_id)
    ) WITHOUT ROWID;
    CREATE INDEX cross_posts_other ON cross_posts(other_site, other_id);
    CREATE INDEX listings_latitude ON listings(latitude) WHERE latitude IS NOT NULL;
    """

  /// Marks a person sets on a listing (issue 28, ``ListingMarks``): starred (watched: every
  /// change, gone, back and repost told), hidden (never shown or announced again, reposts
  /// included), a note. Apart from `listings`, keyed like it: a mark outlives a prune of the
  /// listing's row and is exported with the state.
  static let version13 = """
    CREATE TABLE marks(
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      starred_at REAL,
      hidden_at REAL,
      note TEXT,
      noted_at REAL,
      PRIMARY KEY(site, id)
    ) WITHOUT ROWID;
    CREATE INDEX marks_starred ON marks(site, id) WHERE starred_at IS NOT NULL;
    CREATE INDEX marks_hidden ON marks(site, id) WHERE hidden_at IS NOT NULL;
    """

  /// Alerts for starred listings and text changes (issue 28). `watched`: per search, each starred
  /// listing's source (the request URL that last returned it), the answers of that source in a
  /// row without it, and when it was announced gone. `text_changes`: a listing's title and
  /// description before a change, for the word diff.
  static let version14 = """
    CREATE TABLE watched(
      search TEXT NOT NULL,
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      source TEXT NOT NULL,
      missing INTEGER NOT NULL DEFAULT 0,
      gone_at REAL,
      PRIMARY KEY(search, site, id)
    ) WITHOUT ROWID;
    CREATE TABLE text_changes(
      site TEXT NOT NULL,
      id TEXT NOT NULL,
      changed_at REAL NOT NULL,
      old_title TEXT NOT NULL,
      old_description TEXT NOT NULL,
      PRIMARY KEY(site, id, changed_at)
    ) WITHOUT ROWID;
    """

  /// Unchanged items (docs/performance.md, "Unchanged items"): per sighting in its search's last
  /// answer, the digest of the item it was read from (`item_digest`) and the listing's content
  /// hash when it was (`item_content`). A later answer holding an item of that digest, while the
  /// listing's content hash is still that one, is passed over unread.
  static let version15 = """
    ALTER TABLE sightings ADD COLUMN item_digest TEXT;
    ALTER TABLE sightings ADD COLUMN item_content TEXT;
    """

  /// The geocoder's answers per geocoder (its URL: another geocoder does not reuse them), and
  /// its failures per address: how many in a row, when the address may be asked again (a
  /// back-off), and why. Answers kept before are the unknown geocoder's ('') and asked again.
  static let version16 = """
    CREATE TABLE geocodes_16(
      geocoder TEXT NOT NULL,
      query TEXT NOT NULL,
      latitude REAL,
      longitude REAL,
      asked_at REAL NOT NULL,
      failures INTEGER NOT NULL DEFAULT 0,
      retry_at REAL,
      last_error TEXT,
      PRIMARY KEY(geocoder, query)
    ) WITHOUT ROWID;
    INSERT INTO geocodes_16(geocoder, query, latitude, longitude, asked_at)
      SELECT '', query, latitude, longitude, asked_at FROM geocodes;
    DROP TABLE geocodes;
    ALTER TABLE geocodes_16 RENAME TO geocodes;
    """
}
