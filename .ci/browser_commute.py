"""Travel times, the near: circle, the place's label and the phone layout of `clarissa serve`'s
map in .ci/browser (the map's other checks are in browser_map.py).

- Fed: the served searches.yaml gives ipads `near: {office: 3 km}` and `commute: {office: {by:
  car, max: 30 min}}`, with `routing:` sending car to an OSRM table service this script runs on
  127.0.0.1 (OSRMTable: 6 min plus 2.2 min a km from the office, no route for every ninth grid
  cell). The first store's run asks it (the run's commute stage, with a 4-hour limit that drops
  nothing); the answers it kept are copied
  into the served store; the page reads them through the store (CommuteLookup). One more
  listing lies 140 m east of the office (imported, never run: its time is unknown).
- Checked: the map's data carries the fed times and the limit; the legend's lines and counts
  (counted here from the fed times by map.js's rule); the swatches' colours; each card's and
  each single pin's class; the list sorted by travel time; the near: circle's width (3 km, within
  3 %) and colour; the place's label covering no marker or cluster icon at zooms 12-18 (and
  moved at least once, the 140 m pin shown); at a 390 x 844 viewport the map's height (at least
  80 %) and the list's first card in view after one tap on the handle.
"""
import http.server
import json
import math
import os
import re
import sqlite3
import threading
import subprocess
import time

from browser_map import api, viewport, wait_for_markers  # beside this script

# The served config's place, the 3 km of ipads' `near:` and its commute limit.
OFFICE = (37.7749, -122.4194)
NEAR_KM = 3
LIMIT = {"place": "office", "by": "car", "max": 30}
# 140 m east of the office (at 37.77°N a degree of longitude is 87.96 km).
BY_THE_PLACE = (OFFICE[0], OFFICE[1] + 0.140 / 87.96)
# Okabe and Ito's colours of the classes (style.css), as the browser computes them.
COMMUTE_COLOURS = {"within": "rgb(0, 158, 115)", "near": "rgb(230, 159, 0)", "beyond": "rgb(213, 94, 0)",
                   "unknown": "rgb(255, 255, 255)"}


class OSRMTable(http.server.BaseHTTPRequestHandler):
    """An OSRM table service on 127.0.0.1, answering as osrm-backend's docs/http.md describes
    `GET /table/v1/{profile}/{lon,lat;...}?sources=..&destinations=..&annotations=duration`:
    `{"code": "Ok", "durations": [[seconds]...], "sources": [...], "destinations": [...]}`,
    null for no route. Each duration is this script's rule (`rule_minutes`), so the times the
    page shows are checked against numbers computed here."""

    requests = 0

    def do_GET(self):
        found = re.fullmatch(r"/table/v1/([\w-]+)/([^?]+)\?(.*)", self.path)
        if not found:
            return self.answer(400, {"code": "InvalidUrl", "message": "URL string malformed"})
        OSRMTable.requests += 1
        points = [tuple(map(float, pair.split(","))) for pair in found[2].split(";")]
        query = dict(part.split("=", 1) for part in found[3].split("&"))
        sources = [int(n) for n in query["sources"].split(";")]
        destinations = [int(n) for n in query["destinations"].split(";")]
        durations = []
        for source in sources:
            lon, lat = points[source]
            row = []
            for destination in destinations:
                minutes = rule_minutes(lat, lon)
                row.append(None if minutes is None else minutes * 60)
            durations.append(row)
        waypoint = lambda n: {"location": list(points[n]), "name": "", "distance": 0, "hint": ""}
        self.answer(200, {"code": "Ok", "durations": durations, "sources": [waypoint(n) for n in sources],
                          "destinations": [waypoint(n) for n in destinations]})

    def answer(self, status, document):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start_engine():
    """The OSRM table service, on a free port of 127.0.0.1; its base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OSRMTable)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


def served_config(path, engine, limit=LIMIT["max"], near=True):
    """A searches.yaml as served: `places: {office}`, ipads with `near: {office: 3 km}` and
    `commute: {office: {by: car, max: 30 min}}`, and `routing:` sending car to `engine`. The
    first store's run is given `max: 240 min` instead: the engine is asked for every listing
    within a car's reach of 4 hours (480 km, so all of them) and none is dropped for its time,
    so the served store holds the same listings as before, with every answer kept (the answers
    are kept by engine, place and cell, whatever the limit); and no `near:`, which would drop
    the listings farther than 3 km."""
    with open(path) as handle:
        text = handle.read()
    circle = f"    near: {{office: {NEAR_KM} km}}\n" if near else ""
    text = text.replace("  - name: ipads\n", f"  - name: ipads\n{circle}"
                        f"    commute: {{office: {{by: car, max: {limit} min}}}}\n", 1)
    text += f"\nplaces:\n  office: [{OFFICE[0]}, {OFFICE[1]}]\n"
    text += f"\nrouting:\n  car: {{osrm: \"{engine}\", delay: 0s}}\n"
    with open(path, "w") as handle:
        handle.write(text)


def km_from_office(lat, lon):
    """The great-circle distance, as clarissa computes it (mean Earth radius 6,371.0088 km)."""
    p1, p2 = math.radians(OFFICE[0]), math.radians(lat)
    dp, dl = p2 - p1, math.radians(lon - OFFICE[1])
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))


def rule_minutes(lat, lon):
    """The engine's travel time from a point: 6 min plus 2.2 min a km from the office; none (no
    route) for every ninth grid cell (by the cell's thousandths of a degree)."""
    if (round(lat * 1000) + round(lon * 1000)) % 9 == 0:
        return None
    return 6 + 2.2 * km_from_office(lat, lon)


def cell(value):
    """A coordinate as clarissa's cache grid keeps it (docs/configuration.md: 0.001 degrees),
    computed as CommuteGrid does: divided by the step, rounded half away from zero (Swift's
    `rounded()`, not Python's half-to-even), times the step; then six decimals, as the request
    writes it."""
    steps = value / 0.001
    return round(math.copysign(math.floor(abs(steps) + 0.5), steps) * 0.001, 6)


def expected_minutes(item):
    """What the page must show for a listing: the rule at its grid cell, in whole minutes;
    None for no route, and for a listing farther in a straight line than a car covers in the
    limit at 120 km/h (never asked)."""
    lat, lon = item["latitude"], item["longitude"]
    if km_from_office(lat, lon) > 120 * LIMIT["max"] / 60:
        return None
    minutes = rule_minutes(cell(lat), cell(lon))
    return None if minutes is None else math.floor(minutes + 0.5)


BEYOND_REACH = set()


def expected_class(minutes, limit=LIMIT["max"], key=None):
    """The rule map.js colours by: within at most 0.8 x max, near at most max, beyond above or
    farther than a car covers in the limit at 120 km/h."""
    if key in BEYOND_REACH:
        return "beyond"
    if minutes is None:
        return "unknown"
    return "within" if minutes <= 0.8 * limit else "near" if minutes <= limit else "beyond"


FED = {}


NO_ROUTE = set()


def expect_times(items, asked=True):
    """FED: each ipads listing with coordinates and its expected whole minutes (none for one
    no run has seen: the engine was never asked for its cell)."""
    for item in items:
        searches = [sighting["search"] for sighting in item.get("sightings", [])]
        if item.get("type") != "listing" or "ipads" not in searches or item.get("latitude") is None:
            continue
        key = f"{item['site']}:{item['id']}"
        FED[key] = expected_minutes(item) if asked else None
        lat, lon = item["latitude"], item["longitude"]
        if km_from_office(lat, lon) > 120 * LIMIT["max"] / 60:
            BEYOND_REACH.add(key)
        if asked and km_from_office(lat, lon) <= 120 * LIMIT["max"] / 60 and rule_minutes(cell(lat), cell(lon)) is None:
            NO_ROUTE.add(key)


def copy_travel_times(first, served):
    """The engine's answers the first store kept (its run asked the engine) into the served
    store, as rows: `state export` carries listings, not the routing cache."""
    with sqlite3.connect(served) as target:
        target.execute("ATTACH DATABASE ? AS first", (first,))
        target.execute("INSERT OR REPLACE INTO travel_times SELECT * FROM first.travel_times")
        count = target.execute("SELECT count(*) FROM travel_times").fetchone()[0]
    return count


def pin_by_the_place(now):
    """An ipads listing 140 m east of the office."""
    return {"type": "listing", "site": "craigslist", "id": "by-the-place", "title": "iPad by the office",
            "url": "https://sfbay.craigslist.org/sfc/ele/d/by-the-place.html", "price": 150, "currency": "USD",
            "firstSeen": now, "lastSeen": now, "prices": [{"at": now, "currency": "USD", "price": 150}],
            "sightings": [{"search": "ipads", "firstSeen": now, "lastSeen": now}],
            "latitude": BY_THE_PLACE[0], "longitude": BY_THE_PLACE[1]}



def checks(driver, base, c):
    commute_checks(driver, base, c)
    label_checks(driver, base, c)
    phone_checks(driver, base, c)


def set_view(driver, lat, lon, zoom):
    """The map moved without animation, once the clusters and the labels have settled."""
    driver.execute_script("clarissaMap.map.setView([arguments[0], arguments[1]], arguments[2], {animate: false});", lat, lon, zoom)
    time.sleep(0.9)


def commute_checks(driver, base, c):
    """Travel times: from the store, which the run filled from the loopback OSRM; the limit
    30 min by car to the office."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    viewport(driver, 1280, 800)
    data = api(base, "?search=ipads")
    fed = {m["key"]: FED.get(m["key"], "none") for m in data["markers"]}
    wrong = [(m["key"], m.get("commute"), FED[m["key"]]) for m in data["markers"] if m["key"] in FED
             and (m.get("commute", [{}])[0].get("minutes") != FED[m["key"]] or m["commute"][0].get("max") != 30)]
    c.check("the map's data has each ipads marker's travel time (the engine's rule, computed here) and the limit",
            not wrong and len(FED) > 100 and data["limits"] == [LIMIT],
            f"{len(FED)} expected, limits {data.get('limits')}, wrong: {wrong[:3]}")
    said = {m["key"]: m["commute"][0].get("words", "") for m in data["markers"] if m.get("commute")}
    unsaid = [k for k in NO_ROUTE if said.get(k) != "travel time to office by car unknown (no route)"]
    c.check("a cell the engine found no route for says so (kept as an answer, not asked again)",
            NO_ROUTE and not unsaid, f"{len(NO_ROUTE)} without a route, wrong: {[(k, said.get(k)) for k in unsaid[:3]]}")
    counts = {k: 0 for k in COMMUTE_COLOURS}
    for key in fed:
        counts[expected_class(fed[key] if fed[key] != "none" else None, key=key)] += 1
    driver.get(base + "map?search=ipads")
    wait_for_markers(driver)
    legend = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#map-legend li")]
    wanted = [f"within 24 min by car to office ({counts['within']})", f"near the limit (24 min to 30 min) ({counts['near']})",
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
    wrong = [(k, cls) for k, cls in cards if cls.split()[-1] != "commute-" + expected_class(FED.get(k), key=k)]
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
    c.check("a card says the travel time in words", f"{known[0]} min by car to office" in first.text, first.text)
    # The pins, zoomed in on the office: each single pin's colour is its class's.
    set_view(driver, OFFICE[0], OFFICE[1], 17)
    pins = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('.leaflet-marker-pane .leaflet-marker-icon.pin'), function (p) {"
        " return [p.className, getComputedStyle(p).backgroundColor, p.title || p.getAttribute('title')]; });")
    titled = {m["title"]: expected_class(FED.get(m["key"]), key=m["key"]) for m in data["markers"]}
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
