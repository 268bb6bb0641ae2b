"""The installable web app of `clarissa serve` in .ci/browser: the manifest, the service worker,
the "Notify this device" button, a push shown, and the phone, tablet and desktop layouts.

It runs its own `clarissa serve` (another port: another origin, so no worker of the other checks
is involved) and its own Chromium, with a fresh profile and Google's push servers replaced:
Chromium's push subscription goes through GCM (a check-in, then a registration), which on this
machine has no network. Chromium has switches for those addresses (--gcm-checkin-url,
--gcm-registration-url, --gcm-mcs-endpoint); PushService below answers them on 127.0.0.1 as
Google's would (the check-in's protobuf, `token=...` for a registration). Without it,
pushManager.subscribe() never settles (measured: still pending after 421 s; Chromium retries its
check-in with back-off), so that is the most real this machine allows: Chromium's own subscribe,
its own keys (p256dh, auth), its registration request carrying our VAPID key, answered by a
stand-in for Google. Not proven here: a message through FCM to this Chromium (its MCS
connection is Google's TLS protocol); the push event is delivered through the DevTools protocol
(ServiceWorker.deliverPushMessage) instead, and a notification's click is not reachable from
the DevTools protocol at all.

Checks:
- install:  Page.getInstallabilityErrors lists none; Page.getAppManifest parses without errors.
- worker:   /sw.js registers with the scope /, controls the page, its caches are named for the
            assets' version; at most 50 pages kept (55 asked: the first 5 dropped); nothing of
            /api/, /act/ or the sign-in kept.
- offline:  with the network emulated offline and the server stopped, a page viewed before
            reloads from the worker with its style (and the shell's script), and a page never
            viewed shows the offline page.
- button:   permission granted (Browser.grantPermissions), a click subscribes: the registration
            request carries the server's VAPID key (GET /api/push/key) as its sender, the
            subscription the server was sent is Chromium's (endpoint, 65-byte p256dh, 16-byte
            auth); the state says on, a second click turns it off, a third on again.
- push:     a payload delivered to the worker shows its notification (title, body, tag, the Star
            and Hide actions, the icons); a hostile one (other origins' links, control
            characters, 10,000 characters) shows bounded text and carries no foreign link.
- layouts:  390 x 844 as before, a card's link a link; 1024 x 768 the list as one column beside
            the listing's pane, the address #/listing/..., Back, Forward, a reload, a mark set in
            the pane; 1280 x 800 with a mouse the grid, a link a link; with a touch screen the
            grid beside the pane; without script the link still opens the listing's page.
With --screenshots DIR: serve-app-phone.png, serve-app-tablet.png, serve-app-desktop.png.
"""
import base64
import http.server
import json
import os
import shutil
import struct
import tempfile
import threading
import time
import urllib.parse
import urllib.request

from browser_map import viewport  # beside this script


class PushService(http.server.BaseHTTPRequestHandler):
    """Google's GCM check-in and registration, answered on 127.0.0.1."""
    registrations = []
    checkins = 0

    def do_POST(self):
        size = min(int(self.headers.get("Content-Length") or 0), 65536)
        body = self.rfile.read(size)
        if self.path.startswith("/checkin"):
            PushService.checkins += 1
            # AndroidCheckinResponse: stats_ok = 1 (field 1), android_id (7), security_token (8).
            answer = b"\x08\x01" + b"\x39" + struct.pack("<Q", 4242424242) + b"\x41" + struct.pack("<Q", 777777777)
            kind = "application/x-protobuf"
        else:
            fields = dict(urllib.parse.parse_qsl(body.decode("ascii", "replace")))
            PushService.registrations.append(fields)
            fields["token"] = f"clarissa-browser-{len(PushService.registrations)}"
            answer = f"token={fields['token']}".encode()
            kind = "text/plain"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def chromium(push_service, profile):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--proxy-server=http://127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                     "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--metrics-recording-only", "--window-size=1280,800",
                     "--force-device-scale-factor=1", "--hide-scrollbars", f"--user-data-dir={profile}",
                     f"--gcm-checkin-url={push_service}/checkin", f"--gcm-registration-url={push_service}/register",
                     "--gcm-mcs-endpoint=https://127.0.0.1:9"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_script_timeout(60)
    return driver


def script(driver, body):
    """Runs `body` (JavaScript that calls done(value)) and returns the value."""
    return driver.execute_async_script("var done = arguments[arguments.length - 1];\n" + body)


def wait(predicate, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return predicate()


def unbase64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def controlled(driver):
    return script(driver, """
      navigator.serviceWorker.ready.then(function (registration) {
        done({scope: registration.scope, controlled: !!navigator.serviceWorker.controller});
      }, function (error) { done({error: String(error)}); });""")


def caches_now(driver):
    return script(driver, """
      caches.keys().then(function (names) {
        return Promise.all(names.map(function (name) {
          return caches.open(name).then(function (cache) { return cache.keys(); }).then(function (keys) {
            return [name, keys.map(function (request) { return request.url; })];
          });
        }));
      }).then(function (pairs) { var out = {}; pairs.forEach(function (p) { out[p[0]] = p[1]; }); done(out); });""")


def install_checks(driver, base, c):
    driver.get(base)
    wait(lambda: controlled(driver).get("controlled"))
    state = controlled(driver)
    c.check("the service worker registers with the whole app as its scope and controls the page",
            state.get("scope") == base and state.get("controlled"), str(state))
    errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors")
    c.check("Chromium finds the app installable (Page.getInstallabilityErrors: none)", errors == [], str(errors))
    manifest = driver.execute_cdp_cmd("Page.getAppManifest", {})
    c.check("the manifest parses without errors or warnings (Page.getAppManifest)",
            manifest.get("url") == base + "manifest.webmanifest" and manifest.get("errors") == [],
            str(manifest.get("errors")))
    with urllib.request.urlopen(base + "sw.js", timeout=10) as answer:
        version = answer.read().decode().split('var VERSION = "', 1)[1][:16]
    names = sorted(caches_now(driver))
    c.check("the worker's caches are named for the assets' version",
            f"clarissa-shell-{version}" in names and all(version in name for name in names), str(names))


def layout_checks(driver, base, c, shots):
    from selenium.webdriver.common.by import By
    page = base + "listings?search=ipads"

    def save(name):
        if shots:
            os.makedirs(shots, exist_ok=True)
            driver.save_screenshot(os.path.join(shots, name))
            print(f"screenshot: {os.path.join(shots, name)}")

    # phone
    viewport(driver, 390, 844)
    driver.get(page)
    lefts = {round(card.rect["x"]) for card in driver.find_elements(By.CSS_SELECTOR, "article.card")[:6]}
    c.check("at 390 x 844 there is no pane and the page fits",
            not driver.find_elements(By.CSS_SELECTOR, ".pane")
            and driver.execute_script("return document.documentElement.scrollWidth - innerWidth") <= 0, str(lefts))
    link = driver.find_elements(By.CSS_SELECTOR, "a.card-link")[1]
    target = link.get_attribute("href")
    link.click()
    wait(lambda: driver.current_url == target)
    c.check("at 390 px a card's link opens the listing's page", driver.current_url == target, driver.current_url)

    # tablet
    viewport(driver, 1024, 768)
    driver.get(page)
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "main.split .pane"))
    cards = driver.find_elements(By.CSS_SELECTOR, "main.split .list-side article.card")
    pane = driver.find_elements(By.CSS_SELECTOR, "main.split .pane")
    one_column = len({round(card.rect["x"]) for card in cards[:6]}) == 1
    beside = bool(pane) and bool(cards) and pane[0].rect["x"] > cards[0].rect["x"] + cards[0].rect["width"]
    c.check("at 1024 x 768 the list is one column beside the pane", one_column and beside,
            f"{len(cards)} cards, one column {one_column}, beside {beside}")
    length = driver.execute_script("return history.length")
    chosen = cards[3]
    title = chosen.find_element(By.CSS_SELECTOR, ".title").text
    path = chosen.find_element(By.CSS_SELECTOR, "a.card-link").get_attribute("href").replace(base[:-1], "")
    chosen.find_element(By.CSS_SELECTOR, "a.card-link").click()
    shown = wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".pane article.listing h1"))
    c.check("a card's link opens the listing in the pane, the list stays",
            bool(shown) and shown[0].text == title and driver.current_url == page + "#" + path
            and "current" in chosen.get_attribute("class").split(),
            f"{driver.current_url}, {shown[0].text if shown else None!r} for {title!r}")
    c.check("and is a history entry", driver.execute_script("return history.length") == length + 1)
    driver.back()
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".pane .pane-hint"))
    c.check("Back closes the pane and stays on the list",
            driver.current_url == page and bool(driver.find_elements(By.CSS_SELECTOR, ".pane .pane-hint")),
            driver.current_url)
    driver.forward()
    shown = wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".pane article.listing h1"))
    c.check("Forward opens it again", bool(shown) and shown[0].text == title)
    driver.refresh()
    shown = wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".pane article.listing h1"))
    c.check("a reload of #/listing/... opens it in the pane", bool(shown) and shown[0].text == title)
    # A mark's form in the pane comes back to the list with the listing open.
    star = driver.find_elements(By.CSS_SELECTOR, ".pane .star-button")
    if star:
        star[0].click()
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".pane .star-button.on"))
        c.check("Star in the pane comes back to the list with the listing open, starred",
                driver.current_url == page + "#" + path
                and bool(driver.find_elements(By.CSS_SELECTOR, ".pane .star-button.on")), driver.current_url)

    if shots:
        driver.get(page)
        first = wait(lambda: driver.find_elements(By.CSS_SELECTOR, "main.split a.card-link"))[0]
        first.click()
        wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".pane article.listing h1"))
        driver.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.5)
        save("serve-app-tablet.png")

    # desktop
    viewport(driver, 1280, 800)
    driver.get(page)
    cards = driver.find_elements(By.CSS_SELECTOR, "main .cards article.card")
    columns = len({round(card.rect["x"]) for card in cards[:8]})
    c.check("at 1280 x 800 (a mouse) the cards are a grid of 4 columns, no pane",
            columns == 4 and not driver.find_elements(By.CSS_SELECTOR, ".pane"), f"{columns} columns")
    time.sleep(0.5)
    save("serve-app-desktop.png")
    link = cards[1].find_element(By.CSS_SELECTOR, "a.card-link")
    target = link.get_attribute("href")
    link.click()
    wait(lambda: driver.current_url == target)
    c.check("at 1280 px a card's link opens the listing's page", driver.current_url == target, driver.current_url)
    # A touch screen as wide (an iPad Pro in landscape): the pane, beside a grid.
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.get(page + "#" + path)
    shown = wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".pane article.listing h1"))
    cards = driver.find_elements(By.CSS_SELECTOR, "main.split .list-side article.card")
    columns = len({round(card.rect["x"]) for card in cards[:6]})
    c.check("at 1280 px with a touch screen the cards are a grid beside the listing's pane",
            bool(shown) and shown[0].text == title and columns >= 2, f"{columns} columns")
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})

    # without script
    viewport(driver, 1024, 768)
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    driver.get(page)
    link = driver.find_elements(By.CSS_SELECTOR, "a.card-link")[2]
    target = link.get_attribute("href")
    link.click()
    wait(lambda: driver.current_url == target)
    c.check("without script, at 1024 px, a card's link is a link to the listing's page",
            driver.current_url == target and not driver.find_elements(By.CSS_SELECTOR, ".pane"), driver.current_url)
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    viewport(driver, 1280, 800)


def button_checks(driver, base, c, shots):
    from selenium.webdriver.common.by import By
    with urllib.request.urlopen(base + "api/push/key", timeout=10) as answer:
        key = json.loads(answer.read())["publicKey"]
    driver.get(base)
    box = driver.find_element(By.ID, "device")
    wait(lambda: box.get_attribute("data-state") == "off")
    c.check("the button is shown, this device not notified yet", box.is_displayed()
            and box.get_attribute("data-state") == "off", str(box.get_attribute("data-state")))
    driver.find_element(By.ID, "notify-device").click()
    wait(lambda: box.get_attribute("data-state") == "on" or box.get_attribute("data-error"), 30)
    said = driver.find_element(By.ID, "notify-state").text
    c.check("a click subscribes this device: the state says on", box.get_attribute("data-state") == "on", said)
    made = script(driver, """
      navigator.serviceWorker.ready.then(function (r) { return r.pushManager.getSubscription(); })
        .then(function (s) { done(s ? s.toJSON() : null); });""") or {}
    # Chromium registers itself too (app=com.google.android.gms), at a moment of its own.
    registration = ([r for r in PushService.registrations if r.get("X-subtype", "").startswith("wp:")] or [{}])[-1]
    c.check("Chromium's registration carried the server's VAPID key as its sender and this origin",
            registration.get("sender") == key and registration.get("X-subtype", "").startswith("wp:" + base),
            f"{registration.get('sender')} vs {key}")
    keys = made.get("keys") or {}
    c.check("the subscription is Chromium's own: its endpoint, a 65-byte p256dh, a 16-byte auth",
            "token" in registration and made.get("endpoint", "").endswith("/" + registration["token"])
            and len(unbase64url(keys.get("p256dh", ""))) == 65 and len(unbase64url(keys.get("auth", ""))) == 16,
            str(made))
    if shots:
        os.makedirs(shots, exist_ok=True)
        viewport(driver, 390, 844)
        driver.get(base)
        wait(lambda: driver.find_element(By.ID, "device").get_attribute("data-state") == "on")
        driver.save_screenshot(os.path.join(shots, "serve-app-phone.png"))
        print(f"screenshot: {os.path.join(shots, 'serve-app-phone.png')}")
        viewport(driver, 1280, 800)
        driver.get(base)
        box = driver.find_element(By.ID, "device")
        wait(lambda: box.get_attribute("data-state") == "on")
    driver.find_element(By.ID, "notify-device").click()
    wait(lambda: box.get_attribute("data-state") == "off" or box.get_attribute("data-error"), 30)
    gone = script(driver, """
      navigator.serviceWorker.ready.then(function (r) { return r.pushManager.getSubscription(); })
        .then(function (s) { done(s === null); });""")
    c.check("a second click turns it off (the server told, the subscription dropped)",
            box.get_attribute("data-state") == "off" and gone, driver.find_element(By.ID, "notify-state").text)
    driver.find_element(By.ID, "notify-device").click()
    wait(lambda: box.get_attribute("data-state") == "on" or box.get_attribute("data-error"), 30)
    c.check("a third click subscribes again", box.get_attribute("data-state") == "on",
            driver.find_element(By.ID, "notify-state").text)
    return made


def notifications(driver):
    return script(driver, """
      navigator.serviceWorker.ready.then(function (r) { return r.getNotifications(); }).then(function (list) {
        done(list.map(function (n) { return {title: n.title, body: n.body, tag: n.tag, icon: n.icon, badge: n.badge,
          data: n.data, actions: n.actions.map(function (a) { return a.action + ':' + a.title; })}; }));
      });""")


def deliver(driver, origin, payload, shown):
    """Delivers `payload` to the worker (ServiceWorker.deliverPushMessage) until `shown()`:
    the registration's id is Chromium's own number (small in a fresh profile; events that
    would name it do not reach selenium), and an id of no registration is dropped silently."""
    data = json.dumps(payload)
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    refused = []
    # Two rounds: the first message after the domain is enabled was lost in some runs.
    for registration in list(range(0, 8)) * 2:
        try:
            driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage",
                                   {"origin": origin, "registrationId": str(registration), "data": data})
        except Exception as error:  # noqa: BLE001 (not this registration)
            refused.append(str(error).splitlines()[0])
            continue
        if wait(shown, 2):
            return True
    print("ServiceWorker.deliverPushMessage: no notification shown; " + "; ".join(refused[:2]))
    return False


def push_checks(driver, base, c):
    origin = base.rstrip("/")
    driver.get(base)
    payload = {
        "title": "ipads: iPad Air 64GB", "body": "$220 · Mission District", "tag": "ipads",
        "url": base + "listing/craigslist/7712345678", "viewed": base + "act/viewed-token", "unviewed": 7,
        "actions": [{"action": "star", "title": "Star", "url": base + "act/star-token"},
                    {"action": "hide", "title": "Hide", "url": base + "act/hide-token"}],
    }
    delivered = deliver(driver, origin, payload, lambda: notifications(driver))
    shown = notifications(driver)
    first = shown[0] if shown else {}
    c.check("a push shows its notification: title, body, tag, Star and Hide, the icons",
            delivered and first.get("title") == payload["title"] and first.get("body") == payload["body"]
            and first.get("tag") == "ipads" and first.get("actions") == ["star:Star", "hide:Hide"]
            and first.get("icon") == base + "icons/icon-192.png" and first.get("badge") == base + "icons/badge-96.png"
            and (first.get("data") or {}).get("url") == payload["url"], str(first))
    hostile = {
        "title": "A\u0007\u001b[31mred\u2028" + "x" * 10000, "body": ["not", "text"], "tag": "ipads",
        "url": "https://evil.example/phish", "viewed": "javascript:alert(1)", "unviewed": "lots",
        "actions": [{"action": "star", "title": "Star", "url": "https://evil.example/star"},
                    {"action": "hide", "title": "Hide", "url": "//evil.example/hide"},
                    {"action": "delete", "title": "Delete", "url": base + "act/x"}],
    }
    hostile_shown = lambda: [n for n in notifications(driver) if n["title"].startswith("A")]  # noqa: E731
    deliver(driver, origin, hostile, hostile_shown)
    replaced = hostile_shown() or [{}]
    note = replaced[0]
    c.check("a hostile push: text bounded and without control characters, no foreign link, no action",
            len(note.get("title", "")) <= 200 and not any(ord(ch) < 32 for ch in note.get("title", ""))
            and note.get("body") == "" and note.get("actions") == []
            and (note.get("data") or {}).get("url") is None and (note.get("data") or {}).get("viewed") is None,
            str({k: (v[:60] if isinstance(v, str) else v) for k, v in note.items()}))
    c.check("a notification with the same tag replaces the older one", len(notifications(driver)) == 1)


def cache_checks(driver, base, c):
    from selenium.webdriver.common.by import By
    links = []
    for page in ["1", "2"]:
        driver.get(base + "listings?search=ipads&page=" + page)
        links += [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a.card-link")]
    links = links[:55]
    script(driver, """
      var links = %s;
      links.reduce(function (before, link) {
        return before.then(function () { return fetch(link, {headers: {Accept: "text/html"}}); });
      }, Promise.resolve()).then(function () { return new Promise(function (r) { setTimeout(r, 500); }); })
        .then(function () { done(true); });""" % json.dumps(links))
    kept = caches_now(driver)
    pages = next((urls for name, urls in kept.items() if name.startswith("clarissa-pages-")), [])
    c.check("the worker keeps the last 50 pages, the oldest dropped (55 asked)",
            len(links) == 55 and len(pages) == 50 and links[0] not in pages and links[4] not in pages
            and set(links[5:]) <= set(pages), f"{len(pages)} kept of {len(links)} asked")
    driver.get(base + "api/searches")
    driver.get(base + "listings?search=ipads&token=wrong")
    everything = [url for urls in caches_now(driver).values() for url in urls]
    c.check("nothing of /api/, /act/, the sign-in or a ?token= link is kept",
            not [u for u in everything if "/api/" in u or "/act/" in u or "token=" in u or "/login" in u],
            str([u for u in everything if "/api/" in u or "token=" in u][:3]))


def offline_checks(driver, base, c, serve):
    from selenium.webdriver.common.by import By
    listing = base + "listings?search=ipads"
    viewport(driver, 1024, 768)
    driver.get(listing)
    first_title = driver.find_element(By.CSS_SELECTOR, ".card .title").text
    style = driver.execute_script("return getComputedStyle(document.querySelector('.card')).borderRadius")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    serve.terminate()
    serve.wait(timeout=10)
    try:
        urllib.request.urlopen(base + "healthz", timeout=3)
        stopped = False
    except OSError:
        stopped = True
    driver.get(listing)
    title = driver.find_elements(By.CSS_SELECTOR, ".card .title")
    styled = driver.execute_script(
        "var card = document.querySelector('.card'); return card && getComputedStyle(card).borderRadius")
    c.check("offline (the server stopped too), a page viewed before comes from the worker, styled",
            stopped and bool(title) and title[0].text == first_title and styled == style and style != "0px",
            f"server stopped {stopped}, title {title[0].text if title else None!r}, radius {styled} vs {style}")
    scripted = driver.execute_script("return !!document.querySelector('main.split .pane')")
    c.check("and its scripts (the panes' at 1024 px) come from the worker too", scripted)
    driver.get(base + "listings?search=ipads&page=4")
    heading = driver.find_elements(By.TAG_NAME, "h1")
    c.check("a page never viewed shows the offline page", bool(heading) and heading[0].text == "Offline",
            heading[0].text if heading else "no heading")
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def policy_checks(driver, c):
    refused = [entry["message"] for entry in driver.get_log("browser")
               if "Content Security Policy" in entry.get("message", "")]
    c.check("no Content-Security-Policy refusal in the app's checks", not refused, str(refused[:2]))


def checks(start_serve, c, shots=None):
    """Runs the app's checks against a `clarissa serve` of its own (`start_serve()` gives the
    process and its base URL)."""
    service = http.server.ThreadingHTTPServer(("127.0.0.1", 0), PushService)
    threading.Thread(target=service.serve_forever, daemon=True).start()
    profile = tempfile.mkdtemp(prefix="clarissa-app-profile-")
    serve, base = start_serve()
    driver = None
    try:
        driver = chromium(f"http://127.0.0.1:{service.server_address[1]}", profile)
        install_checks(driver, base, c)
        # What a person's "Allow" gives; the button still asks (Notification.requestPermission).
        driver.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": base.rstrip("/"), "permissions": ["notifications"]})
        # The push event first: delivered after the button's third subscription, it showed
        # nothing in some runs (Chromium's registration of it still under way?).
        push_checks(driver, base, c)
        try:
            urllib.request.urlopen(base + "api/push/key", timeout=5).close()
            has_push = True
        except OSError:
            has_push = False
        if has_push:
            button_checks(driver, base, c, shots)
        else:
            c.check("this build has GET /api/push/key (lane-push's routes)", False, "404: the button cannot subscribe")
        layout_checks(driver, base, c, shots)
        cache_checks(driver, base, c)
        policy_checks(driver, c)
        offline_checks(driver, base, c, serve)
        print(f"push service stand-in: {PushService.checkins} check-in(s), {len(PushService.registrations)} registration(s)")
    finally:
        if driver:
            driver.quit()
        if serve.poll() is None:
            serve.terminate()
            serve.wait(timeout=10)
        service.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
