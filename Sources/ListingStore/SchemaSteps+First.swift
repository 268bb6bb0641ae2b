extension SchemaSteps {
  /// The SQLite store's first six steps, from before the PostgreSQL store: times are seconds
  /// since 1970 (REAL), and a listing is known by its key (site, id).
  static let first: [SchemaStep] = [
    // The tables: searches, listings, prices, sightings, deliveries, what is held and shown.
    SchemaStep(
      "01-tables",
      sqlite: """
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
        """),
    // Reposts: a listing's fingerprint (the same item under another id) and its image ids, and per
    // sighting the listing it repeats for that search.
    SchemaStep(
      "02-reposts",
      sqlite: """
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
        """),
    // Changes announced: a sighting's price last announced, and deliveries per event (a price drop
    // is delivered again to a channel that took the listing when it was new).
    SchemaStep(
      "03-changes-announced",
      sqlite: """
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
        """),
    // What the Atom feeds and the page show of a change: a recent row's event and the price before
    // (null for a listing shown because it was new); the posts folded into a listing, found from it
    // (a message names them).
    SchemaStep(
      "04-recent-events",
      sqlite: """
        ALTER TABLE recent ADD COLUMN event TEXT;
        ALTER TABLE recent ADD COLUMN old_price REAL;
        CREATE INDEX sightings_repost_of ON sightings(search, site, repost_of)
          WHERE repost_of IS NOT NULL;
        """),
    // Viewed: when a person opened the listing (`clarissa serve`, `listings --mark-viewed`); the
    // index finds the unviewed of a search without reading the others.
    SchemaStep(
      "05-viewed",
      sqlite: """
        ALTER TABLE listings ADD COLUMN viewed_at REAL;
        CREATE INDEX listings_unviewed ON listings(site, id) WHERE viewed_at IS NULL;
        """),
    // `clarissa serve`: each search's last failures; a search's listings newest first (and all
    // searches' together) by index, and each search's count of unviewed listings kept by triggers,
    // so that neither a page nor the searches' counts reads a search's whole history. A sighting
    // counts as unviewed unless its listing is known and viewed, which makes the triggers
    // independent of the order in which a run, an import or a prune writes sightings and listings.
    // `clarissa state check` recounts and compares.
    SchemaStep(
      "06-unviewed-counts",
      sqlite: """
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
        """),
  ]
}
