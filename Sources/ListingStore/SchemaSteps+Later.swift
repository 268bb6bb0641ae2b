extension SchemaSteps {
  /// The steps both stores take, from the content hash on, each under one name. A new step is
  /// appended here; a step adding listing facts' columns is ``SchemaStep/listingColumns(_:)``.
  static let later: [SchemaStep] = [
    // A listing's content hash (``ListingField/contentHash(_:)``): a run that sees a listing again
    // compares it and, when it is equal, writes only when the listing was seen (no fields, photos
    // or price rows). Null (an import, an older store) makes the next sighting write all.
    SchemaStep(
      "07-content-hash",
      sqlite: """
        ALTER TABLE listings ADD COLUMN content_hash TEXT;
        """,
      postgres: """
        ALTER TABLE listings ADD COLUMN content_hash text;
        """),
    // Last seen per answer (``LastSeen``): each search's last answer, when it came; a sighting in
    // it is seen then, so that a poll whose answer holds the same listings writes one row. Only
    // sightings outside an answer are found by their own time (the partial index); those in one by
    // their search.
    SchemaStep(
      "08-answers",
      sqlite: """
        CREATE TABLE answers(
          search TEXT PRIMARY KEY,
          answered_at REAL NOT NULL
        ) WITHOUT ROWID;
        ALTER TABLE sightings ADD COLUMN in_answer INTEGER NOT NULL DEFAULT 0;
        DROP INDEX sightings_last_seen;
        CREATE INDEX sightings_last_seen ON sightings(last_seen) WHERE NOT in_answer;
        CREATE INDEX sightings_answer ON sightings(search) WHERE in_answer;
        """,
      postgres: """
        CREATE TABLE answers(
          search text PRIMARY KEY,
          answered_at double precision NOT NULL
        );
        ALTER TABLE sightings ADD COLUMN in_answer boolean NOT NULL DEFAULT false;
        DROP INDEX sightings_last_seen;
        CREATE INDEX sightings_last_seen ON sightings(last_seen) WHERE NOT in_answer;
        CREATE INDEX sightings_answer ON sightings(search) WHERE in_answer;
        """),
    // What a listing describes (issue 27): rooms, bedrooms, bathrooms, floor area and its unit,
    // postcode, address and the site's other facts, from ``ListingField/all``.
    .listingColumns("09-listing-facts"),
    // The geocoder's answers (``GeocoderSettings``): an address's coordinates, or none found
    // (null), when asked; what is kept is asked again only after `retryNotFound` when nothing was
    // found.
    SchemaStep(
      "10-geocodes",
      sqlite: """
        CREATE TABLE geocodes(
          query TEXT PRIMARY KEY,
          latitude REAL,
          longitude REAL,
          asked_at REAL NOT NULL
        ) WITHOUT ROWID;
        """,
      postgres: """
        CREATE TABLE geocodes(
          query text PRIMARY KEY,
          latitude double precision,
          longitude double precision,
          asked_at double precision NOT NULL
        );
        """),
    // `clarissa serve`'s map (`/map`): the listings that have coordinates, found without reading
    // the others when they are few (``ConnectedStore/mapped(_:)``).
    SchemaStep(
      "11-map-index",
      sqlite: """
        CREATE INDEX listings_located ON listings(site, id) WHERE latitude IS NOT NULL;
        """,
      postgres: """
        CREATE INDEX listings_located ON listings(site, id) WHERE latitude IS NOT NULL;
        """),
    // Cross-site folding (``SameFlat``): a listing found to be the same flat as one on another
    // site, recorded when it was found. Read both ways (a's page names b, b's names a).
    SchemaStep(
      "12-cross-posts",
      sqlite: """
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
        """,
      postgres: """
        CREATE TABLE cross_posts(
          site text NOT NULL,
          id text NOT NULL,
          other_site text NOT NULL,
          other_id text NOT NULL,
          found_at double precision NOT NULL,
          PRIMARY KEY(site, id, other_site, other_id)
        );
        CREATE INDEX cross_posts_other ON cross_posts(other_site, other_id);
        CREATE INDEX listings_latitude ON listings(latitude) WHERE latitude IS NOT NULL;
        """),
    // Marks a person sets on a listing (issue 28, ``ListingMarks``): starred (watched: every
    // change, gone, back and repost told), hidden (never shown or announced again, reposts
    // included), a note. Apart from `listings`, keyed like it: a mark outlives a prune of the
    // listing's row and is exported with the state.
    SchemaStep(
      "13-marks",
      sqlite: """
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
        """,
      postgres: """
        CREATE TABLE marks(
          site text NOT NULL,
          id text NOT NULL,
          starred_at double precision,
          hidden_at double precision,
          note text,
          noted_at double precision,
          PRIMARY KEY(site, id)
        );
        CREATE INDEX marks_starred ON marks(site, id) WHERE starred_at IS NOT NULL;
        CREATE INDEX marks_hidden ON marks(site, id) WHERE hidden_at IS NOT NULL;
        """),
    // Alerts for starred listings and text changes (issue 28). `watched`: per search, each starred
    // listing's source (the request URL that last returned it), the answers of that source in a row
    // without it, and when it was announced gone. `text_changes`: a listing's title and description
    // before a change, for the word diff.
    SchemaStep(
      "14-watched",
      sqlite: """
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
        """,
      postgres: """
        CREATE TABLE watched(
          search text NOT NULL,
          site text NOT NULL,
          id text NOT NULL,
          source text NOT NULL,
          missing integer NOT NULL DEFAULT 0,
          gone_at double precision,
          PRIMARY KEY(search, site, id)
        );
        CREATE TABLE text_changes(
          site text NOT NULL,
          id text NOT NULL,
          changed_at double precision NOT NULL,
          old_title text NOT NULL,
          old_description text NOT NULL,
          PRIMARY KEY(site, id, changed_at)
        );
        """),
    // Unchanged items (docs/performance.md, "Unchanged items"): per sighting in its search's last
    // answer, the digest of the item it was read from (`item_digest`) and the listing's content
    // hash when it was (`item_content`). A later answer holding an item of that digest, while the
    // listing's content hash is still that one, is passed over unread.
    SchemaStep(
      "15-item-digests",
      sqlite: """
        ALTER TABLE sightings ADD COLUMN item_digest TEXT;
        ALTER TABLE sightings ADD COLUMN item_content TEXT;
        """,
      postgres: """
        ALTER TABLE sightings ADD COLUMN item_digest text;
        ALTER TABLE sightings ADD COLUMN item_content text;
        """),
    // The geocoder's answers per geocoder (its URL: another geocoder does not reuse them), and its
    // failures per address: how many in a row, when the address may be asked again (a back-off),
    // and why. Answers kept before are the unknown geocoder's ('') and asked again. SQLite
    // copies the table; PostgreSQL alters it in place.
    SchemaStep(
      "16-geocoders",
      sqlite: """
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
        """,
      postgres: """
        ALTER TABLE geocodes ADD COLUMN geocoder text NOT NULL DEFAULT '';
        ALTER TABLE geocodes ADD COLUMN failures integer NOT NULL DEFAULT 0;
        ALTER TABLE geocodes ADD COLUMN retry_at double precision;
        ALTER TABLE geocodes ADD COLUMN last_error text;
        ALTER TABLE geocodes DROP CONSTRAINT geocodes_pkey;
        ALTER TABLE geocodes ADD PRIMARY KEY (geocoder, query);
        """),
    // The tops of prices, rooms and floor areas given as ranges (issue 41), from
    // ``ListingField/all``.
    .listingColumns("17-range-tops"),
    // Photo fingerprints (issue 43, ``PhotoMatch``): per photo address fetched, its 64-bit
    // difference hash (the bits as a signed integer), its size and when, or why it was refused
    // (`note`, hash null); `image` is its id in `listing_images` (``Fingerprint/image(_:)``).
    // `photo_bands` finds the hashes within 5 bits of one: each hash under its six band keys
    // (``PhotoMatch/bands(_:)``), two hashes that near share one. Listings are found from a
    // photo by its id across sites (`listing_images_image`).
    SchemaStep(
      "18-photo-hashes",
      sqlite: """
        CREATE TABLE photo_hashes(
          url TEXT PRIMARY KEY,
          image TEXT NOT NULL,
          hash INTEGER,
          width INTEGER NOT NULL DEFAULT 0,
          height INTEGER NOT NULL DEFAULT 0,
          fetched_at REAL NOT NULL,
          note TEXT
        ) WITHOUT ROWID;
        CREATE INDEX photo_hashes_hash ON photo_hashes(hash) WHERE hash IS NOT NULL;
        CREATE INDEX photo_hashes_fetched ON photo_hashes(fetched_at);
        CREATE TABLE photo_bands(
          band INTEGER NOT NULL,
          url TEXT NOT NULL,
          PRIMARY KEY(band, url)
        ) WITHOUT ROWID;
        CREATE INDEX listing_images_image ON listing_images(image);
        """,
      postgres: """
        CREATE TABLE photo_hashes(
          url text PRIMARY KEY,
          image text NOT NULL,
          hash bigint,
          width integer NOT NULL DEFAULT 0,
          height integer NOT NULL DEFAULT 0,
          fetched_at double precision NOT NULL,
          note text
        );
        CREATE INDEX photo_hashes_hash ON photo_hashes(hash) WHERE hash IS NOT NULL;
        CREATE INDEX photo_hashes_fetched ON photo_hashes(fetched_at);
        CREATE TABLE photo_bands(
          band integer NOT NULL,
          url text NOT NULL,
          PRIMARY KEY(band, url)
        );
        CREATE INDEX listing_images_image ON listing_images(image);
        """),
    // When the seller's account was made (issue 43), from ``ListingField/all``.
    .listingColumns("19-seller"),
    // Warning signs (issue 43): per listing, the signs the run found when it was new, one row
    // a kind (`ListingSignal`), shown by messages, reports, `show`, the page and the map.
    SchemaStep(
      "20-signals",
      sqlite: """
        CREATE TABLE signals(
          site TEXT NOT NULL,
          id TEXT NOT NULL,
          kind TEXT NOT NULL,
          text TEXT NOT NULL,
          found_at REAL NOT NULL,
          PRIMARY KEY(site, id, kind)
        ) WITHOUT ROWID;
        """,
      postgres: """
        CREATE TABLE signals(
          site text NOT NULL,
          id text NOT NULL,
          kind text NOT NULL,
          text text NOT NULL,
          found_at double precision NOT NULL,
          PRIMARY KEY(site, id, kind)
        );
        """),
    // Travel times (issue 44, ``TravelTimeCache``): a routing engine's answers, per engine
    // (``RoutingEngine/cacheName``), mode, place (``CommuteGrid/placeKey(_:)``) and grid cell
    // (``CommuteGrid/key(_:)``), in minutes (null: the engine found no route), when asked;
    // forgotten after ``TravelTimeCache/maxAge`` by the time's index.
    SchemaStep(
      "21-travel-times",
      sqlite: """
        CREATE TABLE travel_times(
          engine TEXT NOT NULL,
          mode TEXT NOT NULL,
          place TEXT NOT NULL,
          cell TEXT NOT NULL,
          minutes REAL,
          asked_at REAL NOT NULL,
          PRIMARY KEY(engine, mode, place, cell)
        ) WITHOUT ROWID;
        CREATE INDEX travel_times_asked ON travel_times(asked_at);
        """,
      postgres: """
        CREATE TABLE travel_times(
          engine text NOT NULL,
          mode text NOT NULL,
          place text NOT NULL,
          cell text NOT NULL,
          minutes double precision,
          asked_at double precision NOT NULL,
          PRIMARY KEY(engine, mode, place, cell)
        );
        CREATE INDEX travel_times_asked ON travel_times(asked_at);
        """),
    // Web Push (issue 45, ``PushSubscriptionStore``): the browsers subscribed on the page (the
    // endpoint, its keys in base64url, when subscribed, the last message accepted and refused),
    // and the server's VAPID private key, made once (`name` 'vapid'), never printed, exported
    // or copied.
    SchemaStep(
      "22-web-push",
      sqlite: """
        CREATE TABLE push_subscriptions(
          endpoint TEXT PRIMARY KEY,
          p256dh TEXT NOT NULL,
          auth TEXT NOT NULL,
          created_at REAL NOT NULL,
          last_success REAL,
          last_failure REAL,
          last_error TEXT
        ) WITHOUT ROWID;
        CREATE TABLE push_keys(
          name TEXT PRIMARY KEY,
          private_key TEXT NOT NULL,
          created_at REAL NOT NULL
        ) WITHOUT ROWID;
        """,
      postgres: """
        CREATE TABLE push_subscriptions(
          endpoint text PRIMARY KEY,
          p256dh text NOT NULL,
          auth text NOT NULL,
          created_at double precision NOT NULL,
          last_success double precision,
          last_failure double precision,
          last_error text
        );
        CREATE TABLE push_keys(
          name text PRIMARY KEY,
          private_key text NOT NULL,
          created_at double precision NOT NULL
        );
        """),
  ]
}
