/// The commented definition `clarissa sites new` writes: it reads without errors, and every
/// line says what to change (docs/adding-a-site.md has the whole format).
enum StarterSite {
  static func text(id: String) -> String {
    """
    # A site definition for clarissa (docs/adding-a-site.md has the whole format).
    # Check it against a saved answer of the site until every field finds what it should:
    #   clarissa sites check sites/\(id).yaml --sample page.html --url https://...
    format: 1
    id: \(id)                   # what a search writes in 'site:'
    name: \(id)
    status: unverified          # active once it has read a real answer of the site
    summary: the search page of \(id)
    language: en                # en or de: relative dates ("3 hours ago") and decimal commas
    time_zone: UTC              # the site's zone, for dates written without one
    currency: USD               # prices that name no currency
    politeness:
      delay: 10s                # least time between two requests; be gentle
      jitter: 5s
      interval: 15m             # shortest search interval

    cities:
      kind: free                # table (names with codes), pattern, free or none

    requests:
      - url: "https://www.example.org/search/{city|slug}"
        query:
          q: "{query}"            # left out when the search has no query
          min_price: "{price.min}"
          max_price: "{price.max}"
        read:
          as: html              # html (XPath) or json (JSONPath)
          items: '//article'    # one element per result
          empty: '//*[contains(@class, "no-results")]'  # the page that says "nothing found"
          fields:
            id: '@data-id'      # relative to the item; '@x' is its attribute x
            url: './/a/@href'   # made absolute against the page's address
            title: './/h2'
            price: {path: './/*[contains(@class, "price")]', filters: [price], optional: true}
            location: {path: './/*[contains(@class, "location")]', optional: true}
            posted: {path: './/time/@datetime', filters: [{date: [iso8601, relative]}], optional: true}
            images: {path: './/img/@src', optional: true}
            # What a home is, when the site says: rooms ("2,5 Zi."), floor_area ("50 m²",
            # "850 ft²"; a bare number in 'floor_area_unit:'), postcode, address, and the
            # site's other facts by name (facts: {floor: './/*[@class="floor"]'}).
            floor_area: {path: './/*[contains(@class, "size")]', optional: true}

    """
  }
}
