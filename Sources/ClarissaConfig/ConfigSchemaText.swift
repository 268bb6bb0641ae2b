internal import ClarissaCore
internal import Foundation

/// The hover texts of ``ConfigSchema``: one line per key, as docs/configuration.md says it.
///
/// Site parameters are not here: their declarations carry their own summary and example; nor
/// are the keys of a search: ``SearchKey/all`` carries their texts.
enum ConfigSchemaText {
  static let root =
    "clarissa's searches.yaml: searches, cities, quiet hours and channels (docs/configuration.md)"
  static let extensionKey = "ignored by clarissa: a place for your own anchors (x-common: &common)"

  /// The channel texts (`channel`, `channel.url`), listing `kinds` (docs/notifications.md).
  static func channelTexts(_ all: [any ChannelKind]) -> [String: String] {
    let forms = all.map { $0.schemes.joined(separator: "/") }
    let kinds = all.map { $0.summary.replacingOccurrences(of: "`", with: "'") }
    return [
      "channel": "a channel URL (\(forms.joined(separator: ", "))) or a mapping with 'url'",
      "channel.url":
        "where messages go (docs/notifications.md); ${VAR} allowed: "
        + kinds.joined(separator: "; "),
    ]
  }

  /// The text for a property at `path` ("search.query"); a key without one says so plainly,
  /// and `ConfigSchemaTests` fails until it is written. (The channel's URL, which names the
  /// kinds, is ``channelTexts(_:)``'s.)
  static func text(for path: String, key: String? = nil) -> String {
    texts[path] ?? "'\(key ?? path)' (\(missingMarker); see docs/configuration.md)"
  }

  /// Marks a key whose description has not been written yet.
  static let missingMarker = "no description yet"

  private static let texts: [String: String] = [
    "top.version":
      "schema version; this clarissa reads 1 and refuses newer (default 1, with a warning)",
    "top.defaults":
      "keys applied to every search that does not set them (any search key but 'name'); "
      + "filters from defaults come before a search's own",
    "top.cities":
      "named groups of cities; a search's 'cities' may name a group, a group may name groups",
    "top.blackout": "named quiet-hours windows, used by a search's 'blackout'",
    "top.notify": "named notification channels (Apprise-style URLs), used by a search's 'notify'",
    "top.state": "where seen listings are remembered",
    "top.http": "how sites are asked: user agent, timeout, delays, concurrency",
    "top.output": "Atom feeds and an HTML page of recent listings, written by each run",
    "top.limits":
      "bounds on what a site may bring in one run; each is reported when it bites",
    "limits.items_per_source":
      "listings read from one answer of one source; the rest are dropped with a note in "
      + "every report (default 100000)",
    "limits.new_per_answer":
      "new listings taken from one answer of one source in one run; the rest are left, "
      + "unrecorded, for the next run, with a note (default 2000)",
    "limits.announce_per_search":
      "new listings announced per search and channel in one run; the rest are summed up in "
      + "one message and stay in 'clarissa listings' and the web page (default 50)",
    "limits.title_length":
      "longest title kept, in characters; longer ones are cut with … (default 300)",
    "limits.place_length": "longest place text kept, in characters (default 200)",
    "limits.description_length": "longest description kept, in characters (default 10000)",
    "top.geocoder":
      "optional: a Nominatim-compatible search URL (or a mapping with 'url') used to find the "
      + "coordinates of listings that give only an address; none by default",
    "top.photos":
      "the photo fingerprints of new listings, which fold reposts and the same flat on two "
      + "sites by photo: 'off' fetches no photo; on by default (2 per listing, 200 per run)",
    "photos.per_listing":
      "photos fetched per new listing, its first ones, 1-10 (default 2)",
    "photos.per_run":
      "photos fetched at most in one run, 1-10000 (default 200); the rest are not fetched",
    "top.serve":
      "where a phone reaches the web interface ('url': ntfy and Telegram messages then carry "
      + "Viewed, Hide and Star buttons) and the defaults of 'clarissa serve'",
    "serve.url":
      "the web interface as a phone reaches it, such as https://flats.example.net or "
      + "http://192.168.1.20:8421 (a LAN address or a tunnel); the buttons call URL/act/TOKEN",
    "serve.address": "what 'clarissa serve' listens on when --http is not given (HOST:PORT)",
    "serve.token_file":
      "the access token's file for 'clarissa serve' when neither --token nor --token-file is "
      + "given, relative to the config's folder",
    "serve.key_file":
      "the file of the key that signs the buttons' links (default clarissa-actions.key in the "
      + "state folder; the config's folder for a PostgreSQL store); made 0600 on first need",
    "serve.action_expiry": "how long a message's buttons work (default 7d, at most 366d)",
    "serve.edit": "false: the page shows the searches but cannot edit searches.yaml (default true)",
    "top.searches": "the searches; each is a mapping with at least a unique 'name'",
    "top.sites":
      "a folder of your own site definitions (*.yaml, docs/adding-a-site.md), relative to the "
      + "config's folder (default: sites/ beside the config, when there is one)",
    "cities.group": "a group: the site's city names (sfbay, sfbay/eby) or other group names",
    "state.path":
      "the state database (default clarissa.db), relative to the config's folder; a path ending "
      + "in .json names an earlier version's state, imported into the .db beside it; ${VAR} "
      + "allowed",
    "state.retention": "a listing not seen for this long is forgotten (default 90d), e.g. 60d",
    "state.url":
      "a PostgreSQL store shared by several workers, in place of the file: "
      + "postgres://user@host/db?sslmode=verify-full (libpq's URL; needs a build with the trait "
      + "PostgreSQL); ${VAR} allowed",
    "state.password_file":
      "a file whose first line is the PostgreSQL password (else the URL's, PGPASSWORD or "
      + "~/.pgpass); ${VAR} allowed",
    "state.lease":
      "with state.url: how long a worker holds the sources it took before another may take "
      + "them (default 5m)",
    "state.politeness":
      "with state.url: shared (default: one pace per host for all workers) or per_worker "
      + "(workers reach the sites from different addresses)",
    "http.user_agent": "User-Agent sent with every request; ${VAR} allowed",
    "http.timeout": "whole-request deadline, body included (default 30s)",
    "http.max_response_size": "larger bodies are refused (default 8MiB): 512KB, 8MB, 1MiB or bytes",
    "http.min_delay":
      "least time between two requests to one host (default 3s); a site's own floor wins if "
      + "larger, so 0s means each site's floor",
    "http.jitter": "up to this much random time added to each delay (default 2s); 0s for none",
    "http.max_hosts": "hosts fetched from at the same time, 1-64 (default 4)",
    "geocoder.url": "the search endpoint, such as https://nominatim.openstreetmap.org/search",
    "geocoder.email":
      "sent as email= (Nominatim's usage policy asks heavy users to say who they are)",
    "geocoder.per_run": "addresses asked at most in one run, 1-1000 (default 30); the rest wait",
    "geocoder.delay": "the least time between two requests, at least 1s (the default)",
    "geocoder.retry_not_found":
      "how long an address the geocoder did not find is not asked again (default 30d)",
    "output.atom":
      "folder for an Atom feed per search (<folder>/<search>.xml) and all.xml, relative to "
      + "the config's folder",
    "output.html":
      "file for a static HTML page of recent listings, relative to the config's folder",
    "output.keep":
      "recent listings per search shown in the feeds and the page, 1-1000 (default 50)",
    "blackout.window":
      "a quiet-hours window: timezone, from and to required; days and mode optional",
    "blackout.timezone": "the zone the times are in, an IANA name such as Europe/Paris",
    "blackout.from": "start of the window, 24-hour HH:MM (quote it: \"22:30\")",
    "blackout.to":
      "end of the window, HH:MM; earlier than 'from' wraps past midnight; 24:00 is the end of"
      + " the day",
    "blackout.days":
      "days the window starts on: mon ... sun, full names, ranges (mon-fri), weekdays, "
      + "weekends, daily (default every day)",
    "blackout.mode":
      "hold: searches run and new listings wait for the window's end (default); skip: "
      + "searches do not run",
    "channel.digest":
      "true: one message per run listing every new listing (default false); 'daily 08:00' or "
      + "'weekly mon 08:00' (a time zone may follow): one message when due, quiet hours respected",
    "channel.title":
      "message title template; {title} {price} {location} {url} {search} {city} {site} "
      + "{posted} {age} {description} {id} {count} {facts} {distances} {commute}",
    "channel.body": "message body template; the same {field} placeholders as 'title'",
    "search":
      "one search: 'name' required; the site's parameters are allowed beside the common keys",
    "threshold.min_percent": "the change as a share of the price last announced, in percent",
    "threshold.min_amount": "the change in the listing's currency",
    "price.min": "lowest price, a plain number (no currency sign)",
    "price.max": "highest price, a plain number (no currency sign)",
    "filter": "one filter: 'include' or 'exclude' (exactly one), with options",
    "filter.include": "keep only listings matching this text (or any text of a list)",
    "filter.exclude": "drop listings matching this text (or any text of a list)",
    "filter.regex": "the text is a regular expression (ICU syntax) (default false)",
    "filter.on": "which text of a listing is matched (default both)",
    "filter.match":
      "plain text only: words (whole words and phrases, * as a wildcard; default) or "
      + "substring (anywhere, inside words too)",
    "filter.case_sensitive": "match case (and accents, for plain text) exactly (default false)",
    "top.places":
      "named points, [latitude, longitude] in degrees (work: [52.520, 13.405]), for a search's "
      + "'near' and the distances shown beside listings",
    "bounds.min": "lowest value kept (inclusive)",
    "bounds.max": "highest value kept (inclusive)",
    "floor_area.min": "smallest floor area kept, with its unit: 50 m2, 540 ft2",
    "floor_area.max": "largest floor area kept, with its unit: 120 m2, 1300 ft2",
    "price_per_area.per": "the area unit the price is per: m2 (default) or ft2",
    "top.routing":
      "optional: the routing engine of each travel mode (car, bike, foot: OSRM; "
      + "transit: MOTIS) that a search's 'commute' asks; none by default, and then no position "
      + "leaves the machine for travel times",
    "routing.car": "the engine for 'by: car': {osrm: URL, profile: driving}",
    "routing.bike": "the engine for 'by: bike': {osrm: URL, profile: cycling}",
    "routing.foot": "the engine for 'by: foot': {osrm: URL, profile: foot}",
    "routing.transit":
      "the engine for 'by: transit': {motis: URL, arrive: Mon 08:30}, such as "
      + "https://api.transitous.org (mind its usage policy)",
    "routing.osrm": "an OSRM server's base URL (its table service), such as http://127.0.0.1:5000",
    "routing.motis": "a MOTIS server's base URL, such as https://api.transitous.org",
    "routing.profile":
      "OSRM only: the profile in the URL (default driving, cycling or foot by the mode)",
    "routing.arrive":
      "MOTIS only: when the journeys reach the place, a weekday and a 24-hour time (default "
      + "Mon 08:30)",
    "routing.depart":
      "MOTIS only: read as 'arrive' (MOTIS times many homes to one place by the arrival), "
      + "with a warning",
    "routing.per_run": "requests one run makes to this engine at most, 1-1000 (default 20)",
    "routing.delay":
      "the least time between two requests (default 1s); at least 1s unless the engine is on "
      + "127.0.0.1, ::1 or localhost",
    "commute.by": "the travel mode: car, bike, foot or transit (an engine in 'routing')",
    "commute.max": "the longest the journey may take: 30 min, 1 h, 1.5 h (at most 24 h)",
  ]
}
