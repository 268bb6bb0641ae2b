/// The PostgreSQL store's tables, as its steps of ``SchemaSteps/all`` (step `n` takes the schema
/// from version `n` to `n + 1`; each is recorded, by version and name, in `clarissa_schema`).
/// Version 1 is the SQLite
/// store's model at its schema 6, in PostgreSQL's words: times are seconds since 1970 (double
/// precision) as there, so that `state migrate` copies values unchanged.
enum PostgresSchema {
  /// The version this build writes.
  static var current: Int { steps.count }

  /// The steps, in order: each one's name and SQL.
  static let steps = SchemaSteps.steps(postgres: true)

  /// Each step's SQL, in order.
  static var migrations: [String] { steps.map(\.sql) }

  /// The tops of ranges (SQLite's version 17), from ``ListingField/all``.
  static let version13 = ListingColumns.added(in: 13, postgres: true)

  /// Geocodes per geocoder, with failures and their back-off (SQLite's version 16).
  static let version12 = """
    ALTER TABLE geocodes ADD COLUMN geocoder text NOT NULL DEFAULT '';
    ALTER TABLE geocodes ADD COLUMN failures integer NOT NULL DEFAULT 0;
    ALTER TABLE geocodes ADD COLUMN retry_at double precision;
    ALTER TABLE geocodes ADD COLUMN last_error text;
    ALTER TABLE geocodes DROP CONSTRAINT geocodes_pkey;
    ALTER TABLE geocodes ADD PRIMARY KEY (geocoder, query);
    """

  /// Unchanged items' digests (SQLite's version 15).
  static let version11 = """
    ALTER TABLE sightings ADD COLUMN item_digest text;
    ALTER TABLE sightings ADD COLUMN item_content text;
    """

  /// Starred listings watched per source, and text before a change (SQLite's version 14).
  static let version10 = """
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
    """

  /// Marks a person sets on a listing (SQLite's version 13).
  static let version9 = """
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
    """

  /// Cross-site folding (SQLite's version 12).
  static let version8 = """
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
    """

  /// The map's listings with coordinates (SQLite's version 11).
  static let version7 = """
    CREATE INDEX listings_located ON listings(site, id) WHERE latitude IS NOT NULL;
    """

  /// The geocoder's answers (SQLite's version 10).
  static let version6 = """
    CREATE TABLE geocodes(
      query text PRIMARY KEY,
      latitude double precision,
      longitude double precision,
      asked_at double precision NOT NULL
    );
    """

  /// What a listing describes (issue 27), from ``ListingField/all`` (SQLite's version 9).
  static let version5 = ListingColumns.added(in: 5, postgres: true)

  /// Version 4: the SQLite store's schema 8, last seen per answer (``LastSeen``).
  static let version4 = """
    CREATE TABLE answers(
      search text PRIMARY KEY,
      answered_at double precision NOT NULL
    );
    ALTER TABLE sightings ADD COLUMN in_answer boolean NOT NULL DEFAULT false;
    DROP INDEX sightings_last_seen;
    CREATE INDEX sightings_last_seen ON sightings(last_seen) WHERE NOT in_answer;
    CREATE INDEX sightings_answer ON sightings(search) WHERE in_answer;
    """

  /// Version 3: the SQLite store's schema 7, a listing's content hash: a listing seen again
  /// unchanged costs a lookup, not a rewrite.
  static let version3 = """
    ALTER TABLE listings ADD COLUMN content_hash text;
    """

  /// Version 2: what several workers need. Rows ordered by insertion (`seq`, SQLite's rowid);
  /// deliveries claimed by the worker sending them; leases on each (search, source); the
  /// workers seen; one pace per host.
  static let version2 = """
    ALTER TABLE deliveries ADD COLUMN seq bigserial;
    CREATE UNIQUE INDEX deliveries_seq ON deliveries(seq);
    ALTER TABLE deliveries ADD COLUMN claimed_by text;
    ALTER TABLE deliveries ADD COLUMN claimed_until double precision;
    ALTER TABLE recent ADD COLUMN seq bigserial;
    CREATE TABLE workers(
      name text PRIMARY KEY,
      host text NOT NULL,
      pid integer NOT NULL,
      version text NOT NULL,
      started_at double precision NOT NULL,
      seen_at double precision NOT NULL
    );
    CREATE TABLE leases(
      search text NOT NULL,
      source text NOT NULL,
      worker text,
      taken_at double precision,
      until double precision NOT NULL DEFAULT 0,
      done_at double precision,
      takeovers integer NOT NULL DEFAULT 0,
      PRIMARY KEY(search, source)
    );
    CREATE TABLE host_pace(
      host text PRIMARY KEY,
      next_at double precision NOT NULL
    );
    """

  static let version1 = """
    CREATE TABLE searches(
      name text PRIMARY KEY,
      last_run double precision,
      last_attempt double precision,
      all_sources_known boolean NOT NULL DEFAULT false,
      last_failures text
    );
    CREATE TABLE sources(
      search text NOT NULL,
      url text NOT NULL,
      PRIMARY KEY(search, url)
    );
    CREATE TABLE listings(
      site text NOT NULL,
      id text NOT NULL,
    \(ListingColumns.created(postgres: true))
      first_seen double precision NOT NULL,
      last_seen double precision NOT NULL,
      fingerprint text,
      viewed_at double precision,
      PRIMARY KEY(site, id)
    );
    CREATE INDEX listings_last_seen ON listings(last_seen);
    CREATE INDEX listings_fingerprint ON listings(site, fingerprint);
    CREATE INDEX listings_unviewed ON listings(site, id) WHERE viewed_at IS NULL;
    CREATE TABLE listing_images(
      site text NOT NULL,
      image text NOT NULL,
      id text NOT NULL,
      PRIMARY KEY(site, image, id)
    );
    CREATE INDEX listing_images_listing ON listing_images(site, id);
    CREATE TABLE prices(
      site text NOT NULL,
      id text NOT NULL,
      seen_at double precision NOT NULL,
      price double precision NOT NULL,
      currency text,
      PRIMARY KEY(site, id, seen_at)
    );
    CREATE TABLE sightings(
      search text NOT NULL,
      site text NOT NULL,
      id text NOT NULL,
      first_seen double precision NOT NULL,
      last_seen double precision NOT NULL,
      repost_of text,
      announced_price double precision,
      PRIMARY KEY(search, site, id)
    );
    CREATE INDEX sightings_last_seen ON sightings(last_seen);
    CREATE INDEX sightings_listing ON sightings(site, id);
    CREATE INDEX sightings_repost_of ON sightings(search, site, repost_of) WHERE repost_of IS NOT NULL;
    CREATE INDEX sightings_search_first_seen ON sightings(search, first_seen);
    CREATE INDEX sightings_first_seen ON sightings(first_seen);
    CREATE TABLE deliveries(
      search text NOT NULL,
      site text NOT NULL,
      id text NOT NULL,
      channel text NOT NULL,
      state text NOT NULL CHECK (state IN ('owed', 'delivered', 'failed')),
      owed_at double precision NOT NULL,
      at double precision,
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      event text NOT NULL DEFAULT 'new',
      old_price double precision,
      event_at double precision NOT NULL DEFAULT 0,
      UNIQUE(search, site, id, channel, event_at)
    );
    CREATE INDEX deliveries_open ON deliveries(state) WHERE state != 'delivered';
    CREATE TABLE held(
      search text NOT NULL,
      site text NOT NULL,
      id text NOT NULL,
      held_at double precision NOT NULL,
      PRIMARY KEY(search, site, id)
    );
    CREATE TABLE recent(
      search text NOT NULL,
      site text NOT NULL,
      id text NOT NULL,
      found double precision NOT NULL,
      event text,
      old_price double precision,
      UNIQUE(search, site, id)
    );
    CREATE INDEX recent_found ON recent(search, found);
    CREATE TABLE validators(
      url text PRIMARY KEY,
      etag text,
      last_modified text
    );
    CREATE TABLE cooldowns(
      host text PRIMARY KEY,
      until double precision NOT NULL,
      reason text NOT NULL,
      since double precision,
      status integer,
      answer text,
      urls text
    );

    -- Each search's unviewed listings, kept as the SQLite store keeps them (a sighting counts
    -- unless its listing is known and viewed).
    CREATE TABLE unviewed(
      search text PRIMARY KEY,
      count integer NOT NULL
    );
    CREATE FUNCTION clarissa_viewed(s text, i text) RETURNS boolean LANGUAGE sql STABLE AS
      $$ SELECT EXISTS (SELECT 1 FROM listings l WHERE l.site = s AND l.id = i AND l.viewed_at IS NOT NULL) $$;
    CREATE FUNCTION clarissa_sighting_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' AND NOT clarissa_viewed(NEW.site, NEW.id) THEN
        INSERT INTO unviewed(search, count) VALUES (NEW.search, 1)
          ON CONFLICT (search) DO UPDATE SET count = unviewed.count + 1;
      ELSIF TG_OP = 'DELETE' AND NOT clarissa_viewed(OLD.site, OLD.id) THEN
        UPDATE unviewed SET count = count - 1 WHERE search = OLD.search;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER unviewed_sighting AFTER INSERT OR DELETE ON sightings
      FOR EACH ROW EXECUTE FUNCTION clarissa_sighting_changed();
    CREATE FUNCTION clarissa_listing_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE step integer := 0; key_site text; key_id text;
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF (OLD.viewed_at IS NULL) = (NEW.viewed_at IS NULL) THEN RETURN NULL; END IF;
        step := CASE WHEN NEW.viewed_at IS NULL THEN 1 ELSE -1 END;
        key_site := NEW.site; key_id := NEW.id;
      ELSIF TG_OP = 'INSERT' AND NEW.viewed_at IS NOT NULL THEN
        step := -1; key_site := NEW.site; key_id := NEW.id;
      ELSIF TG_OP = 'DELETE' AND OLD.viewed_at IS NOT NULL THEN
        step := 1; key_site := OLD.site; key_id := OLD.id;
      ELSE
        RETURN NULL;
      END IF;
      UPDATE unviewed SET count = count + step
        WHERE search IN (SELECT search FROM sightings s WHERE s.site = key_site AND s.id = key_id);
      RETURN NULL;
    END $$;
    CREATE TRIGGER unviewed_listing AFTER INSERT OR UPDATE OF viewed_at OR DELETE ON listings
      FOR EACH ROW EXECUTE FUNCTION clarissa_listing_changed();
    """
}
