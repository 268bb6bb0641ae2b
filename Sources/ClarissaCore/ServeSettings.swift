/// `serve:`: where a phone reaches the web interface, and the defaults of `clarissa serve`.
public struct ServeSettings: Sendable, Equatable {
  /// The web interface's address as a phone reaches it (`https://flat.example.net`, a LAN
  /// address, a tunnel): with it, one-listing messages of ntfy and Telegram carry Viewed,
  /// Hide and Star buttons. Nil: no buttons.
  public var url: String?
  /// `serve --http`'s default (HOST:PORT); the flag wins.
  public var address: String?
  /// `serve --token-file`'s default, as written (relative to the config's folder); the flags
  /// win.
  public var tokenFile: String?
  /// The action key's file, as written; nil: `clarissa-actions.key` in the state folder (in
  /// the config's folder for a PostgreSQL store).
  public var keyFile: String?
  /// How long a button works after its message was sent.
  public var actionExpiry: Interval
  /// Whether the page may edit searches.yaml (`serve: {edit: false}` turns it off).
  public var edit: Bool = true

  /// Creates settings; buttons work for 7 days by default.
  public init(
    url: String? = nil, address: String? = nil, tokenFile: String? = nil,
    keyFile: String? = nil, actionExpiry: Interval = .days(7)
  ) {
    self.url = url
    self.address = address
    self.tokenFile = tokenFile
    self.keyFile = keyFile
    self.actionExpiry = actionExpiry
  }
}
