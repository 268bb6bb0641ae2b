"""The map of `clarissa serve` (/map) in .ci/browser: its tiles from the script's loopback server,
its checks and its screenshots (and the PNGs the loopback server makes for photos and tiles).

- Tiles: /tiles/Z/X/Y.png on the script's loopback server, PNGs made here (a pale tile with a
  darker edge, its hue from Z/X/Y); `clarissa serve --map-tiles` points at them, so the map's
  Content-Security-Policy is checked against a tile host that is not the page's.
- Checks: markers and clusters present, tiles loaded from the tile server, a cluster opens on
  click (the map zooms in), a popup links to the listing's page, the filters change the markers
  (and the list and the map keep each other's filters), hostile text stays text in a popup, the
  page fits a phone; travel times (fed through the file `clarissa serve` reads,
  CLARISSA_SERVE_TRAVEL_TIMES, until the run's commute stage keeps them in the store): the
  legend and its counts, the swatches', pins' and cards' colours against the rule computed
  here, the list sorted by travel time; the near: circle's size and colour; the place's label
  off every marker and cluster icon at zooms 12-18 with a pin 140 m east of the place; at
  390 x 844 the map's height (at least 80 %) and the list one tap away.
"""
import json
import math
import os
import struct
import subprocess
import time
import urllib.request
import zlib

# What the store gets beside the replay's listings: facts for some apartments (to show in the
# popups and on the listing's page), and coordinates for the hostile listings.
APARTMENT_FACTS = {"rooms": 2.5, "bedrooms": 1, "bathrooms": 1, "floor_area": 62.5, "floor_area_unit": "ft2",
                   "postcode": "10013", "address": "Canal St & Broadway", "facts": {"laundry": "in building", "pets": "cats ok"}}
HOSTILE_PLACE = {"latitude": 37.7793, "longitude": -122.4193}


# The served config's place, the 3 km of ipads' `near:` and its commute limit.
OFFICE = (37.7749, -122.4194)
NEAR_KM = 3
LIMIT = {"place": "office", "by": "transit", "max": 30}
# 140 m east of the office (at 37.77°N a degree of longitude is 87.96 km).
BY_THE_PLACE = (OFFICE[0], OFFICE[1] + 0.140 / 87.96)
# Okabe and Ito's colours of the classes (style.css), as the browser computes them.
COMMUTE_COLOURS = {"within": "rgb(0, 158, 115)", "near": "rgb(230, 159, 0)", "beyond": "rgb(213, 94, 0)",
                   "unknown": "rgb(255, 255, 255)"}


def served_config(binary, work, path):
    """The served searches.yaml: `places: {office}`, ipads with `near: {office: 3 km}`, and
    `commute: {office: {by: transit, max: 30 min}}` when `clarissa validate` takes it (the
    config reader of issue 44); returns whether it does (else the limit goes in the travel
    times' file)."""
    with open(path) as handle:
        text = handle.read()
    text = text.replace("  - name: ipads\n", f"  - name: ipads\n    near: {{office: {NEAR_KM} km}}\n", 1)
    text += f"\nplaces:\n  office: [{OFFICE[0]}, {OFFICE[1]}]\n"
    probe = os.path.join(work, "probe")
    os.makedirs(probe, exist_ok=True)
    with_commute = text.replace("  - name: ipads\n", "  - name: ipads\n    commute: {office: {by: transit, max: 30 min}}\n", 1)
    with open(os.path.join(probe, "searches.yaml"), "w") as handle:
        handle.write(with_commute)
    taken = subprocess.run([binary, "validate", "--config", os.path.join(probe, "searches.yaml")],
                           capture_output=True, text=True).returncode == 0
    with open(path, "w") as handle:
        handle.write(with_commute if taken else text)
    return taken


def km_from_office(lat, lon):
    """The great-circle distance, as clarissa computes it (mean Earth radius 6,371.0088 km)."""
    p1, p2 = math.radians(OFFICE[0]), math.radians(lat)
    dp, dl = p2 - p1, math.radians(lon - OFFICE[1])
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


def fed_minutes(item):
    """The travel time fed for an ipads listing with coordinates: 6 min plus 2.2 min a km from
    the office, whole; every ninth listing (by id) has none ("no route")."""
    if sum(map(ord, item["id"])) % 9 == 0:
        return None
    return round(6 + 2.2 * km_from_office(item["latitude"], item["longitude"]))


def expected_class(minutes, limit=LIMIT["max"]):
    """The rule map.js colours by: within at most 0.8 x max, near at most max, beyond above."""
    if minutes is None:
        return "unknown"
    return "within" if minutes <= 0.8 * limit else "near" if minutes <= limit else "beyond"


FED = {}


def write_travel_times(items, path, limits):
    """The file `clarissa serve` reads (CLARISSA_SERVE_TRAVEL_TIMES): each ipads listing's time
    to the office by transit, and, while the config reader takes no `commute:`, the limit."""
    times = {}
    for item in items:
        searches = [sighting["search"] for sighting in item.get("sightings", [])]
        if item.get("type") != "listing" or "ipads" not in searches or item.get("latitude") is None:
            continue
        minutes = fed_minutes(item)
        key = f"{item['site']}:{item['id']}"
        FED[key] = minutes
        times[key] = [{"place": "office", "by": "transit", "minutes": minutes} | ({} if minutes is not None else {"note": "no route"})]
    document = {"times": times} | ({"limits": {"ipads": [LIMIT]}} if limits else {})
    with open(path, "w") as handle:
        json.dump(document, handle)


def pin_by_the_place(now):
    """An ipads listing 140 m east of the office."""
    return {"type": "listing", "site": "craigslist", "id": "by-the-place", "title": "iPad by the office",
            "url": "https://sfbay.craigslist.org/sfc/ele/d/by-the-place.html", "price": 150, "currency": "USD",
            "firstSeen": now, "lastSeen": now, "prices": [{"at": now, "currency": "USD", "price": 150}],
            "sightings": [{"search": "ipads", "firstSeen": now, "lastSeen": now}],
            "latitude": BY_THE_PLACE[0], "longitude": BY_THE_PLACE[1]}


def encode_png(width, height, raw):
    """A PNG of 8-bit RGB rows, each led by its filter byte."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def photo(width, height, seed):
    """A gradient, its hues from `seed`: a listing's photo with no file to ship."""
    r0, g0, b0 = (seed * 67) % 200 + 30, (seed * 131) % 200 + 30, (seed * 29) % 200 + 30
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            t = (x + y) / (width + height)
            row += bytes((int(r0 * (1 - t) + 240 * t), int(g0 * (1 - t) + 220 * t), int(b0 * (1 - t) + 200 * t)))
        rows.append(bytes(row))
    return encode_png(width, height, b"".join(rows))


def tile(z, x, y, size=256):
    """A pale square with a darker edge, its hue from the tile's place: a map stand-in."""
    seed = z * 7 + x * 13 + y * 29
    fill = bytes((232 + seed % 12, 236 + (seed // 3) % 10, 226 + (seed // 7) % 14))
    edge = bytes((200, 204, 196))
    inner = b"\x00" + edge + fill * (size - 2) + edge
    line = b"\x00" + edge * size
    return encode_png(size, size, line + inner * (size - 2) + line)


class Tiles:
    asked = []

    @staticmethod
    def answer(path):
        """The PNG for /tiles/Z/X/Y.png, or None for any other path."""
        parts = path.split("?")[0].strip("/").split("/")
        if len(parts) != 4 or parts[0] != "tiles" or not parts[3].endswith(".png"):
            return None
        try:
            z, x, y = int(parts[1]), int(parts[2]), int(parts[3][:-4])
        except ValueError:
            return None
        Tiles.asked.append((z, x, y))
        return tile(z, x, y)


def decorate(item):
    """The export's line of a listing, with the facts the map shows for some of them."""
    searches = [sighting["search"] for sighting in item.get("sightings", [])]
    if item.get("type") == "listing" and "manhattan-apartments" in searches and int(item.get("price") or 0) % 2 == 0:
        item.update(APARTMENT_FACTS)
    return item


def wait_for_markers(driver, timeout=15):
    """The map's marker count, once its data arrived (None when it never did)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        count = driver.execute_script("var m = document.getElementById('map'); return m && m.getAttribute('data-markers');")
        if count is not None:
            time.sleep(0.4)  # the clusters' animation
            return int(count)
        time.sleep(0.1)
    return None


def holder_attribute(driver, name):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.ID, "map").get_attribute(name)


def api(base, query):
    with urllib.request.urlopen(base + "api/map" + query, timeout=10) as answer:
        return json.load(answer)


def tile_zoom(driver):
    zooms = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('img.leaflet-tile'), function (i) { return i.src; });")
    found = [int(src.split("/tiles/")[1].split("/")[0]) for src in zooms if "/tiles/" in src]
    return max(found) if found else None


def viewport(driver, width, height):
    """The page's viewport made `width` x `height` (headless Chromium's window is taller than
    its page by its hidden toolbar: 143 px here)."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight];")
    driver.set_window_size(width + width - inner[0], height + height - inner[1])


def shoot_map(driver, base, folder, save):
    """The map at desktop size (a popup open) and phone size."""
    data = api(base, "?search=ipads")
    focus = next((m for m in data["markers"] if m["state"] == "drop" and m.get("photo")), None) or data["markers"][0]
    for name, (width, height), path in [
            ("serve-map-desktop.png", (1280, 800), f"map?search=ipads&focus={focus['key']}"),
            ("serve-map-phone.png", (390, 844), "map?search=ipads")]:
        viewport(driver, width, height)
        driver.get(base + path)
        wait_for_markers(driver)
        time.sleep(1.2)  # tiles, and the focused listing's popup
        save(name)
    driver.set_window_size(1280, 900)


def checks(driver, base, c, navigating):
    from selenium.webdriver.common.by import By

    # markers, clusters and tiles
    Tiles.asked.clear()
    data = api(base, "?search=ipads")
    driver.get(base + "map?search=ipads")
    count = wait_for_markers(driver)
    c.check("the map of ipads has a marker per listing with coordinates", count == data["count"] and count > 100,
            f"{count} on the map, {data['count']} from /api/map")
    clusters = driver.find_elements(By.CSS_SELECTOR, ".marker-cluster")
    c.check("the markers are clustered", len(clusters) > 0, str(len(clusters)))
    loaded = driver.execute_script("return document.querySelectorAll('img.leaflet-tile-loaded').length")
    c.check("tiles load from the tile server (the page's CSP allows it)", loaded > 0 and len(Tiles.asked) > 0,
            f"{loaded} tiles shown, {len(Tiles.asked)} asked")
    states = {m["state"] for m in data["markers"]}
    c.check("markers are coloured by state (after 'mark all viewed': viewed, price drop)",
            {"viewed", "drop"} <= states, str(states))
    other = api(base, "?search=manhattan-apartments")
    c.check("another search's markers are unviewed", other["count"] > 0
            and all(m["state"] == "unviewed" for m in other["markers"]), str(other["count"]))

    # a cluster opens on click
    before = tile_zoom(driver)
    biggest = max(clusters, key=lambda k: int(k.text or "0"))
    biggest.click()
    time.sleep(1.5)
    after = tile_zoom(driver)
    c.check("a cluster clicked opens (the map zooms in to it)", before is not None and after is not None and after > before,
            f"zoom {before} -> {after}")

    # the config's named place is drawn
    names = [t.get_attribute("textContent") for t in driver.find_elements(By.CSS_SELECTOR, ".place-label")]
    c.check("the config's place is drawn on the map with its name and its near: radius",
            holder_attribute(driver, "data-places") == "1" and f"office · {NEAR_KM} km" in names, f"{names}")

    # a popup links to the listing
    pins = [p for p in driver.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon.pin") if p.is_displayed()]
    c.check("single markers show once zoomed in", len(pins) > 0, str(len(pins)))
    if pins:
        driver.execute_script("arguments[0].click();", pins[0])
        time.sleep(0.5)
        links = driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup-content a.popup-page")
        href = links[0].get_attribute("href") if links else ""
        c.check("a marker's popup links to the listing's page", "/listing/craigslist/" in href, href)
        distance = driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup-content .popup-distances")
        c.check("and says how far it is from the config's place",
                bool(distance) and distance[0].text.endswith("from office"), distance[0].text if distance else "none")
        opener = driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup-content form.open")
        action = opener[0].get_attribute("action") if opener else ""
        c.check("and opens it on its site as the cards do (a POST to /open/)",
                href != "" and action == href.replace("/listing/", "/open/"), action)
        title = driver.find_element(By.CSS_SELECTOR, ".leaflet-popup-content .title").text if links else ""
        if links:
            navigating(driver, links[0].click)
            c.check("the link opens that listing's page", driver.find_element(By.TAG_NAME, "h1").text == title, title)

    # the filters change the markers; the list and the map keep them
    driver.get(base + "map?search=ipads")
    wait_for_markers(driver)
    field = driver.find_element(By.NAME, "max")
    field.clear()
    field.send_keys("50")
    navigating(driver, driver.find_element(By.CSS_SELECTOR, "#filters button").click)
    cheap = wait_for_markers(driver)
    expected = api(base, "?search=ipads&max=50")
    c.check("a price bound changes the markers", cheap is not None and 0 < cheap < count and cheap == expected["count"],
            f"{count} -> {cheap} (/api/map: {expected['count']})")
    c.check("every marker left is under the bound", all(float(m["price"].replace("$", "").replace(",", "")) <= 50
                                                          for m in expected["markers"] if m.get("price")))
    navigating(driver, driver.find_element(By.ID, "as-list").click)
    c.check("'as a list' keeps the filters", "/listings?" in driver.current_url and "search=ipads" in driver.current_url
            and "max=50" in driver.current_url, driver.current_url)
    navigating(driver, driver.find_element(By.ID, "on-map").click)
    c.check("'on the map' from the list keeps them too", "/map?" in driver.current_url and "max=50" in driver.current_url
            and wait_for_markers(driver) == cheap, driver.current_url)

    # a listing's page: its facts, and "on the map" opens its popup
    apartment = next((m for m in other["markers"] if m.get("facts")), None)
    c.check("apartments with facts have them in the map's data", apartment is not None
            and apartment["facts"] == "2.5 rooms · 1 bedroom · 1 bath · 673 ft²", str(apartment and apartment.get("facts")))
    if apartment:
        driver.get(base + apartment["page"].lstrip("/"))
        facts = driver.find_element(By.CSS_SELECTOR, "dl.facts").text
        c.check("a listing's page shows its facts", all(word in facts for word in ["2.5", "673 ft²", "10013", "Canal St"]), facts)
        c.check("and the site's other facts as a table", "cats ok" in driver.find_element(By.CSS_SELECTOR, "table.other-facts").text)
        navigating(driver, driver.find_element(By.ID, "on-map").click)
        wait_for_markers(driver)
        time.sleep(1.5)
        popup = driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup-content")
        c.check("'on the map' opens the map at that listing's popup", bool(popup) and apartment["title"] in popup[0].text
                and "2.5 rooms" in popup[0].text)

    # hostile text stays text
    driver.get(base + "map?focus=craigslist:hostile-1")
    wait_for_markers(driver)
    time.sleep(1.5)
    popup = driver.find_elements(By.CSS_SELECTOR, ".leaflet-popup-content")
    c.check("a hostile title is text in its popup", bool(popup) and "<script>window.hacked=1" in popup[0].text)
    c.check("no script of it ran, and no javascript: link or photo",
            driver.execute_script("return window.hacked") is None
            and not driver.find_elements(By.CSS_SELECTOR, "[href^='javascript'], img[src^='javascript'], form[action^='javascript']"))

    commute_checks(driver, base, c)
    label_checks(driver, base, c)
    phone_checks(driver, base, c)


def set_view(driver, lat, lon, zoom):
    """The map moved without animation, once the clusters and the labels have settled."""
    driver.execute_script("clarissaMap.map.setView([arguments[0], arguments[1]], arguments[2], {animate: false});", lat, lon, zoom)
    time.sleep(0.9)


def commute_checks(driver, base, c):
    """Travel times: fed from the file `clarissa serve` reads (write_travel_times); the limit
    30 min by transit to the office."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    viewport(driver, 1280, 800)
    data = api(base, "?search=ipads")
    fed = {m["key"]: FED.get(m["key"], "none") for m in data["markers"]}
    c.check("the map's data has each ipads marker's fed travel time and the limit",
            all(m.get("commute", [{}])[0].get("minutes") == FED[m["key"]] and m["commute"][0].get("max") == 30
                for m in data["markers"] if m["key"] in FED) and len(FED) > 100 and data["limits"] == [LIMIT],
            f"{len(FED)} fed, limits {data.get('limits')}")
    counts = {k: 0 for k in COMMUTE_COLOURS}
    for key in fed:
        counts[expected_class(fed[key] if fed[key] != "none" else None)] += 1
    driver.get(base + "map?search=ipads")
    wait_for_markers(driver)
    legend = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#map-legend li")]
    wanted = [f"within 24 min by transit to office ({counts['within']})", f"near the limit (24 min to 30 min) ({counts['near']})",
              f"beyond 30 min ({counts['beyond']})", f"travel time unknown ({counts['unknown']})"]
    c.check("the legend names the limit's classes with the counts of the fed times", legend[:4] == wanted
            and all(counts.values()), f"{legend} != {wanted}")
    swatches = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('#map-legend .pin'), function (p) {"
        " return [p.className, getComputedStyle(p).backgroundColor]; });")
    c.check("the legend's swatches are Okabe and Ito's colours", swatches == [[f"pin pin-{k}", v] for k, v in COMMUTE_COLOURS.items()],
            str(swatches))
    cards = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('#map-list .map-card'), function (li) {"
        " return [li.getAttribute('data-key'), li.className]; });")
    wrong = [(k, cls) for k, cls in cards if cls.split()[-1] != "commute-" + expected_class(FED.get(k))]
    c.check("each card of the list is coloured by its fed time against the limit", len(cards) > 100 and not wrong,
            f"{len(cards)} cards, wrong: {wrong[:3]}")
    Select(driver.find_element(By.ID, "map-sort")).select_by_value("travel")
    time.sleep(0.3)
    order = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('#map-list .map-card'), function (li) { return li.getAttribute('data-key'); });")
    minutes = [FED.get(k) for k in order]
    known = [m for m in minutes if m is not None]
    c.check("sorted by travel time, the list goes shortest first, the unknown last",
            known == sorted(known) and minutes[len(known):] == [None] * (len(minutes) - len(known)) and len(known) > 50,
            f"{minutes[:8]} ... {minutes[-3:]}")
    first = driver.find_element(By.CSS_SELECTOR, "#map-list .map-card")
    c.check("a card says the travel time in words", f"{known[0]} min by transit to office" in first.text, first.text)
    # The pins, zoomed in on the office: each single pin's colour is its class's.
    set_view(driver, OFFICE[0], OFFICE[1], 17)
    pins = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('.leaflet-marker-pane .leaflet-marker-icon.pin'), function (p) {"
        " return [p.className, getComputedStyle(p).backgroundColor, p.title || p.getAttribute('title')]; });")
    titled = {m["title"]: expected_class(FED.get(m["key"])) for m in data["markers"]}
    wrong = [p for p in pins if p[1] != COMMUTE_COLOURS[[k for k in COMMUTE_COLOURS if f"pin-{k}" in p[0].split()][0]]
             or f"pin-{titled.get(p[2], '?')}" not in p[0].split()]
    c.check("the single pins by the office have their class's colour", len(pins) > 0 and not wrong, f"{len(pins)} pins, wrong: {wrong[:3]}")
    # The near: circle: 3 km round the office, in the place's colour.
    circle = driver.execute_script(
        "var p = document.querySelector('path.near-circle'); if (!p) return null; var b = p.getBoundingClientRect();"
        " clarissaMap.map.setView([arguments[0], arguments[1]], 12, {animate: false}); b = p.getBoundingClientRect();"
        " return [b.width, p.getAttribute('stroke'), clarissaMap.map.getZoom()];", OFFICE[0], OFFICE[1])
    if circle:
        metres_per_px = 40075016.686 * math.cos(math.radians(OFFICE[0])) / 2 ** (circle[2] + 8)
        wide = 2 * NEAR_KM * 1000 / metres_per_px
    c.check("the near: circle is 3 km round the office (its width within 3 %), in the place's colour",
            circle is not None and abs(circle[0] - wide) / wide < 0.03 and circle[1] == "#5b2a86",
            f"{circle} (expected {round(wide) if circle else '?'} px)")


def label_checks(driver, base, c):
    """The office's label covers no marker and no cluster's count, with a pin 140 m east of it
    (where the label was drawn before), at every zoom from 12 to 18."""
    viewport(driver, 1280, 800)
    driver.get(base + "map?search=ipads")
    wait_for_markers(driver)
    seen, moved, pinned, covering = 0, 0, 0, []
    for zoom in range(12, 19):
        set_view(driver, OFFICE[0], OFFICE[1], zoom)
        found = driver.execute_script("""
          var label = document.querySelector('.place-label');
          if (!label) return null;
          var b = label.getBoundingClientRect();
          var icons = Array.prototype.filter.call(document.querySelectorAll('.leaflet-marker-pane .leaflet-marker-icon'),
            function (i) { var r = i.getBoundingClientRect(); return r.width > 0
              && r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom; });
          var pin = Array.prototype.some.call(document.querySelectorAll('.leaflet-marker-icon.pin'),
            function (i) { return i.title === 'iPad by the office'; });
          return [getComputedStyle(label).visibility, label.style.left, icons.map(function (i) { return i.className; }), pin];""")
        if found is None:
            covering.append((zoom, "no label"))
            continue
        visibility, left, over, pin = found
        if visibility == "visible":
            seen += 1
            pinned += 1 if pin else 0
            if left != "12px":
                moved += 1
            if over:
                covering.append((zoom, over))
    c.check("the place's label covers no marker or cluster icon at zooms 12-18 (the pin 140 m away shown)",
            not covering and seen >= 5 and moved >= 1 and pinned >= 1,
            f"shown at {seen} zooms, moved off its first side at {moved}, with the pin shown at {pinned}, covering: {covering}")


def phone_checks(driver, base, c):
    """At 390 x 844 the map fills the screen under a compact bar; the list is a tap away."""
    from selenium.webdriver.common.by import By
    viewport(driver, 390, 844)
    driver.get(base + "map?search=ipads")
    wait_for_markers(driver)
    wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    c.check("at 390 px, /map fits the screen", wide <= 0, f"{wide}px too wide")
    box = driver.execute_script("var b = document.getElementById('map').getBoundingClientRect(); return [b.top, b.height, window.innerHeight];")
    c.check("at 390 x 844 the map is at least 80 % of the screen's height, under the bar, all in view",
            box[2] == 844 and box[1] >= 0.8 * box[2] and box[0] + box[1] <= box[2] and box[0] < 0.15 * box[2],
            f"top {box[0]}, height {box[1]} of {box[2]}")
    driver.find_element(By.ID, "list-handle").click()
    time.sleep(0.6)
    top = driver.execute_script("var c = document.querySelector('#map-list .map-card'); return c ? c.getBoundingClientRect().top : null;")
    c.check("one tap on the list's handle brings the list's cards into view", top is not None and 0 <= top < box[2], f"first card at {top}")
    driver.set_window_size(1280, 900)
