internal import ActionKeys

/// What reads a page captured from the person's browser into the searches. Serve links no
/// engine, no site and no libcurl: `clarissa serve` and `watch --http` hand the app one made in
/// ClarissaCommands (`CapturedSearches`), which asks the sites what a URL is and runs the
/// searches that have it with the engine's own runner, its fetcher answering the search's
/// request with the captured page.
package protocol CaptureHandling: Sendable {
  /// What `url` is to the sites and the config's searches (nothing is run).
  func recognise(_ url: String) -> CapturedPage
  /// Reads `html`, the page at `url` as the browser shows it, as the answer to the search's
  /// request of every search that has that page, and runs them as a run would (judged,
  /// announced, recorded); returns when the run is committed. Called on a handler's thread,
  /// never on an event loop: it may take as long as the run.
  func capture(url: String, html: [UInt8]) -> CaptureReport
}

/// What a page's URL is to the sites and the config.
package enum CapturedPage: Sendable, Equatable {
  /// A search page of `site` (its name as people read it) that these searches of the config
  /// have (pasted as `url:`, or their own request); `readsPage` is false when the site reads
  /// that search through its API, not from the page.
  case search(site: String, searches: [String], readsPage: Bool)
  /// A search page of `site` that no search of the config has.
  case newSearch(site: String)
  /// A page on `site`'s hosts that is not one of its search pages; `reason` is the site's own.
  case refused(site: String, reason: String)
  /// A page no site knows.
  case unknown
}

/// What a capture did, for its answer page.
package struct CaptureReport: Sendable, Equatable {
  /// One search's part: the run's own counts.
  package struct Counts: Sendable, Equatable {
    /// The search's name.
    package var search: String
    /// Listings read from the page, before the search's filters.
    package var read: Int
    /// New to the search this time.
    package var new: Int
    /// Seen before and passed over.
    package var known: Int
    /// Recorded without an announcement: the search's first reading (as a run primes it).
    package var primed: Int
    /// Left out by the search's filters.
    package var filtered: Int
    /// Listings the search's channels accepted.
    package var announced: Int
    /// Why the page, or another of the search's requests, gave nothing (a block page, a page
    /// the site's definition no longer matches).
    package var failures: [String]

    /// Counts of one search.
    package init(
      search: String, read: Int, new: Int, known: Int, primed: Int, filtered: Int,
      announced: Int, failures: [String]
    ) {
      self.search = search
      self.read = read
      self.new = new
      self.known = known
      self.primed = primed
      self.filtered = filtered
      self.announced = announced
      self.failures = failures
    }
  }

  /// What the page is.
  package var page: CapturedPage
  /// The searches run with it (none when it was not read).
  package var searches: [Counts]
  /// Why nothing was run although the page is a search's (the store busy, the config broken).
  package var problem: String?

  /// A report.
  package init(page: CapturedPage, searches: [Counts] = [], problem: String? = nil) {
    self.page = page
    self.searches = searches
    self.problem = problem
  }
}

/// The capture token's file and what reads captured pages, as the app holds them.
package struct CaptureDesk: Sendable {
  /// What reads a captured search page; nil: only listing pages are taken (starred).
  package let handler: (any CaptureHandling)?
  /// `clarissa-capture.key` (``CaptureToken``), beside the action key.
  package let tokenFile: String

  /// A desk over `tokenFile`, reading pages with `handler`.
  package init(handler: (any CaptureHandling)?, tokenFile: String) {
    self.handler = handler
    self.tokenFile = tokenFile
  }

  /// The token `POST /capture` checks: the file's, read at each capture (a replacement by
  /// another process counts at once); nil before the bookmarklet's page first made one.
  func current() throws -> CaptureToken? { try CaptureToken.read(tokenFile) }

  /// The token the bookmarklet's page shows, made on first need.
  func issued() throws -> CaptureToken { try CaptureToken.loadOrCreate(at: tokenFile) }

  /// A new token in place of the old (bookmarklets made with it stop working).
  func replaced() throws -> CaptureToken { try CaptureToken.replace(at: tokenFile) }
}
