"""The notifications' buttons, for .ci/browser: a run sends its ntfy messages to the loopback
stand-in (Site), each carrying ntfy's `Actions` header; a second `clarissa serve` (its address
from the config's `serve.address`, no --http) answers the links; Chromium opens a link's
confirmation page, presses its button, and the mark is in the store and on the listing's page.

What it checks:
  confirm:  GET /act/TOKEN only asks (nothing marked yet); its button stars the listing (the
            `marks` table), and Viewed makes the listing's page say "viewed";
  replay:   the same link opened again says it was used and changes nothing (a token acts once);
  forged:   a link with one character changed is refused (403) and marks nothing.
"""
import base64
import os
import re
import sqlite3
import subprocess
import threading
import time


class Ntfy:
    """The ntfy messages the run sent to the stand-in: (path, headers)."""
    messages = []
    lock = threading.Lock()

    @classmethod
    def record(cls, handler):
        length = int(handler.headers.get("Content-Length") or 0)
        handler.rfile.read(length)
        with cls.lock:
            cls.messages.append((handler.path, dict(handler.headers)))
        body = b"{}"
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare(run, root, work, site):
    """A config whose searches notify an ntfy topic on the stand-in, with `serve:` (url and
    address), and a run of the bundled replay that announces every listing."""
    folder = os.path.join(work, "notified")
    os.makedirs(folder)
    with open(os.path.join(root, "searches.yaml")) as handle:
        text = handle.read()
    port = free_port()
    text = text.replace("  blackout: [night]\n", "")  # quiet hours would hold the messages
    text = text.replace("  notify: [terminal]", "  notify: [phone]")
    text = text.replace("  terminal: stdout", f"  terminal: stdout\n  phone: ntfy://127.0.0.1:{site.rsplit(':', 1)[1]}/deals")
    text += f"\nserve:\n  url: http://127.0.0.1:{port}\n  address: 127.0.0.1:{port}\n"
    config = os.path.join(folder, "searches.yaml")
    with open(config, "w") as handle:
        handle.write(text)
    run("run", "--config", config, "--replay", "Fixtures/replay/default", "--notify-first-run", "--quiet")
    return config, f"http://127.0.0.1:{port}/"


def start(binary, root, config, base):
    process = subprocess.Popen([binary, "serve", "--config", config], cwd=root,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 20
    while time.time() < deadline:
        line = process.stderr.readline()
        if base.rstrip("/") in line:
            threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
            return process
        if process.poll() is not None:
            break
    process.kill()
    raise SystemExit(f"set-up failed: clarissa serve did not listen on serve.address ({base})")


def actions(header):
    """ntfy's short form: `action, label, url, key=value...; ...` -> {label: url}."""
    found = {}
    for action in header.split(";"):
        fields = [field.strip() for field in action.split(",")]
        if len(fields) >= 3 and fields[0] == "http":
            found[fields[1]] = fields[2]
    return found


def listing_of(url):
    """The site and id a token carries (docs/serve.md: action, expiry, site length, site, id,
    MAC), read independently of clarissa."""
    token = url.rsplit("/", 1)[1]
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    length = raw[5]
    return raw[6:6 + length].decode(), raw[6 + length:-12].decode()


def starred_at(database, site, id):
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        row = connection.execute("SELECT starred_at FROM marks WHERE site = ? AND id = ?", (site, id)).fetchone()
    return row[0] if row else None


def checks(driver, binary, root, config, base, c, navigating):
    messages = [headers for path, headers in Ntfy.messages if path == "/deals"]
    with_buttons = [h for h in messages if "Actions" in h]
    c.check("the run's ntfy messages carry the buttons", len(messages) > 10 and len(with_buttons) >= len(messages) - 5,
            f"{len(with_buttons)} of {len(messages)}")
    if not with_buttons:
        return
    links = actions(with_buttons[0]["Actions"])
    c.check("three buttons: Viewed, Hide, Star", sorted(links) == ["Hide", "Star", "Viewed"], str(sorted(links)))
    star = links.get("Star", "")
    c.check("each posts to serve.url/act/TOKEN", star.startswith(base + "act/"), star)
    site, id = listing_of(star)
    database = os.path.join(os.path.dirname(config), "clarissa.db")
    serve = start(binary, root, config, base)
    try:
        driver.get(star)
        c.check("the link's page asks first", driver.find_element("tag name", "h1").text.startswith("Star:")
                and starred_at(database, site, id) is None, driver.find_element("tag name", "h1").text)
        navigating(driver, driver.find_element("id", "act-confirm").click)
        c.check("its button stars the listing", driver.find_element("id", "act-done").text.startswith("Starred:"))
        first = starred_at(database, site, id)
        c.check("the star is in the store", first is not None, f"{site}:{id}")
        driver.get(links["Viewed"])
        navigating(driver, driver.find_element("id", "act-confirm").click)
        navigating(driver, driver.find_element("id", "act-listing").click)
        facts = driver.find_element("css selector", "dl.facts").text
        c.check("Viewed shows on the listing's page", "viewed" in facts and "not viewed" not in facts, facts[-120:])
        c.check("the listing's page is that listing", driver.current_url.endswith(f"/listing/{site}/{id}"), driver.current_url)
        driver.get(star)
        c.check("a link used once says so, has no button and changes nothing (a token acts once)",
                bool(driver.find_elements("id", "act-used")) and not driver.find_elements("id", "act-confirm")
                and starred_at(database, site, id) == first, driver.find_element("tag name", "h1").text)
        token = star.rsplit("/", 1)[1]
        forged = star[:-len(token)] + token[:-2] + ("AA" if not token.endswith("AA") else "BB")
        other_site, other_id = listing_of(actions(with_buttons[1]["Actions"])["Star"])
        crossed = star[:-len(token)] + actions(with_buttons[1]["Actions"])["Star"].rsplit("/", 1)[1][:-16] + token[-16:]
        for name, link in [("a forged link", forged), ("a cross-listing link", crossed)]:
            driver.get(link)
            said = driver.find_element("tag name", "body").text
            c.check(f"{name} is refused", "403" in driver.find_element("tag name", "h1").text
                    and not driver.find_elements("id", "act-confirm"), said[:120])
        c.check("and marks nothing", starred_at(database, other_site, other_id) is None)
    finally:
        serve.terminate()
        serve.wait(timeout=10)
