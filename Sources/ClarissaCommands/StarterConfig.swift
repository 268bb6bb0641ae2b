/// The commented `searches.yaml` that `clarissa init` writes (also kept, byte for byte, as
/// `examples/starter.yaml`). It must pass `clarissa validate --strict`: a first file that warns
/// teaches people to ignore warnings.
enum StarterConfig {
  /// The file's text.
  static let text = """
    # searches.yaml: what clarissa watches. Written by 'clarissa init'; edit it freely.
    #
    #   clarissa validate                 check this file (no network); problems come with
    #                                     their line and column and a fix
    #   clarissa run --dry-run            fetch now and show what matches, remembering nothing
    #   clarissa run                      run the due searches; tell only what is new, once
    #   clarissa explain --search desks   which filter kept or dropped each listing
    #
    # Every key, with examples: docs/configuration.md in clarissa's source. Values written
    # ${LIKE_THIS} come from the environment, so secrets never live in this file.
    version: 1

    searches:
      - name: desks                     # in reports, and in 'clarissa run --search desks'
        query: standing desk            # the words Craigslist searches for
        category: fua                   # furniture; 'sss' is everything for sale
        cities: [sfbay]                 # Craigslist areas; find yours with
                                        #   clarissa sites craigslist --cities WORD
                                        # a subarea too: sfbay/eby is the East Bay
        price: {min: 50, max: 400}      # inclusive, in the area's currency; either may go
        interval: 30m                   # how often to look; Craigslist asks for 5m at least
        filters:
          # Plain words match whole words and phrases, any case, accents ignored ('desk*'
          # also matches desks); a list means any of them. 'regex: true' takes a pattern.
          - exclude: [wanted, broken, "for parts"]
            on: title                   # title, description or both (the default)
        # notify: [phone]               # channels (below) that get new listings

    # The first run of a search records what is there without telling you; later runs show
    # only what is new ('clarissa run --notify-first-run' shows the first run's listings too).
    # What clarissa has seen is kept in clarissa.db (SQLite) beside this file.
    #
    # New listings are always printed by 'clarissa run'. To have them sent to your phone as
    # well, set NTFY_TOPIC in the environment, uncomment these two lines and 'notify' above,
    # then try it with 'clarissa notify test phone'. Mail, webhooks, Slack, Discord and
    # programs are channels too (docs/notifications.md).
    # notify:
    #   phone: ntfys://ntfy.sh/${NTFY_TOPIC}

    """
}
