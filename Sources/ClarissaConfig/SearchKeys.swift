/// The keys a search (and `defaults`) may hold, besides its site's own parameters.
enum SearchKeys {
  static let common = [
    "name", "site", "url", "query", "category", "cities", "search_in", "price", "has_image",
    "posted_today", "interval", "filters", "notify", "blackout", "enabled", "duplicates",
    "repost_window", "notify_on", "price_drop", "price_rise", "back_after",
    "allow_private_redirects", "rooms", "bedrooms", "floor_area", "price_per_area", "missing",
    "near", "near_mode", "within",
  ]

  /// Keys only a search itself may set, never `defaults`.
  static let ownOnly: Set<String> = ["name", "url"]

  /// Keys that shape what the site is asked: a pasted `url:` carries them instead.
  static let carriedByURL = [
    "query", "category", "cities", "search_in", "has_image", "posted_today",
  ]

  /// Words people reach for, and what to write instead; suggested when close to the typed key.
  static let hints: [String: String] = [
    "min_price": "(write 'price: {min: ...}')",
    "max_price": "(write 'price: {max: ...}')",
    "price_min": "(write 'price: {min: ...}')",
    "price_max": "(write 'price: {max: ...}')",
    "min_rooms": "(write 'rooms: {min: ...}')",
    "max_rooms": "(write 'rooms: {max: ...}')",
    "min_size": "(write 'floor_area: {min: ... m2}')",
    "max_size": "(write 'floor_area: {max: ... m2}')",
    "max_price_per_square": "(write 'price_per_area: {max: ...}')",
    // No real Craigslist response in the project shows the pet filters' names: not offered.
    "pets_dog": "(clarissa has no pet filter: Craigslist's pet parameter is not confirmed)",
    "pets_cat": "(clarissa has no pet filter: Craigslist's pet parameter is not confirmed)",
  ]

  /// Exact words from other tools that mean one of our keys.
  static let synonyms: [String: String] = [
    "q": "query", "keywords": "query", "search": "query", "city": "cities", "area": "cities",
    "areas": "cities", "channels": "notify", "notifications": "notify", "quiet_hours": "blackout",
    "every": "interval", "frequency": "interval", "filter": "filters", "title_only": "search_in",
    "disabled": "enabled", "cat": "category", "exclude_reposts": "duplicates",
    "reposts": "duplicates", "size": "floor_area", "sqm": "floor_area", "area_size": "floor_area",
    "distance": "near", "radius": "near", "polygon": "within", "geojson": "within",
    "beds": "bedrooms",
  ]
}
