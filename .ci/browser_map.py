"""The map of `clarissa serve` (/map) in .ci/browser: its tiles from the script's loopback server,
its checks and its screenshots (and the PNGs the loopback server makes for photos and tiles).

- Tiles: /tiles/Z/X/Y.png on the script's loopback server, PNGs made here (a pale tile with a
  darker edge, its hue from Z/X/Y); `clarissa serve --map-tiles` points at them, so the map's
  Content-Security-Policy is checked against a tile host that is not the page's.
- Checks: markers and clusters present, tiles loaded from the tile server, a cluster opens on
  click (the map zooms in), a popup links to the listing's page, the filters change the markers
  (and the list and the map keep each other's filters), hostile text stays text in a popup, the
  page fits a phone. Travel times, the near: circle, the place's label and the phone layout:
  browser_commute.py.
"""
import json
import struct
import time
import urllib.request
import zlib

# What the store gets beside the replay's listings: facts for some apartments (to show in the
# popups and on the listing's page), and coordinates for the hostile listings.
APARTMENT_FACTS = {"rooms": 2.5, "bedrooms": 1, "bathrooms": 1, "floor_area": 62.5, "floor_area_unit": "ft2",
                   "postcode": "10013", "address": "Canal St & Broadway", "facts": {"laundry": "in building", "pets": "cats ok"}}
HOSTILE_PLACE = {"latitude": 37.7793, "longitude": -122.4193}


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
            holder_attribute(driver, "data-places") == "1" and "office · 3 km" in names, f"{names}")

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
