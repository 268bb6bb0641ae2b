extension SchemaSteps {
  /// The PostgreSQL store's own first two steps: the SQLite store's tables at its sixth step, then
  /// what workers sharing the store need.
  static let postgresFirst: [SchemaStep] = [
    // The SQLite store's model at its sixth step, in PostgreSQL's words: times are seconds since
    // 1970 (double precision) as there, so that `state migrate` copies values unchanged.
    SchemaStep(
      "postgres-01-tables-of-06",
      postgres: """
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
        """),
    // What several workers need. Rows ordered by insertion (`seq`, SQLite's rowid);
    // deliveries claimed by the worker sending them; leases on each (search, source); the workers
    // seen; one pace per host.
    SchemaStep(
      "postgres-02-workers",
      postgres: """
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
        """),
  ]
}
