"""Capture from the person's browser in .ci/browser: the bookmarklet's own script run on a
site's search page in Chromium, the page read into the search that has it.

- Set up: a config whose search `duesseldorf` pasted Kleinanzeigen's search page
  (`url: https://www.kleinanzeigen.de/s-immobilien/...`, the page recorded in
  Fixtures/kleinanzeigen, 27 listings), `photos: off`; `clarissa serve` on 127.0.0.1; this
  script serves the recorded page on 127.0.0.1 under the site's own path, over TLS with a
  certificate it makes (Chromium's HSTS preload list upgrades the name to https; the
  certificate's errors are ignored); Chromium maps www.kleinanzeigen.de to 127.0.0.1
  (`--host-resolver-rules`, the proxy bypassed for that name only), so the page's address is the
  site's own, on this script's port, and nothing leaves the machine (every other name finds
  nothing, every other request goes to a proxy that leads nowhere).
- Checked: /capture shows the bookmarklet; its `javascript:` URL, percent-decoded as a browser
  does and run in the site's page, opens serve's answer in a new window, which counts 27 read
  and 27 recorded as the search's first reading (serve primes a new search as a run does);
  `clarissa listings` then has the 27 listings; a second capture finds 27 known and none new;
  a listing's page captured is starred; on the same page sent with `Content-Security-Policy:
  form-action 'self'` (what a site can do) Chromium stops the form and reports `form-action`.
"""
import http.server
import json
import os
import re
import shutil
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.parse

PAGE_PATH = "/s-immobilien/duesseldorf/anzeige:angebote/wohnung/k0c195l2068r5"
SITE = "www.kleinanzeigen.de"
FIXTURE = "Fixtures/kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.html"


class SitePage(http.server.BaseHTTPRequestHandler):
    """The recorded search page under its own path (with `walled`, and a CSP that lets its
    forms go to the site only); any other path: a small page (a listing's)."""
    body = b""
    walled = False

    def do_GET(self):
        headers = {"Content-Type": "text/html; charset=utf-8"}
        if self.path == PAGE_PATH:
            body = SitePage.body
            if SitePage.walled:
                headers["Content-Security-Policy"] = "form-action 'self'"
        else:
            body = b"<!DOCTYPE html><title>Anzeige</title><h1>an ad</h1>"
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def browser(port):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--proxy-server=http://127.0.0.1:9", f"--proxy-bypass-list={SITE}",
                     f"--host-resolver-rules=MAP {SITE} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                     "--ignore-certificate-errors", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--metrics-recording-only", "--window-size=1280,900"]:
        options.add_argument(argument)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def start_serve(binary, config, root):
    process = subprocess.Popen([binary, "serve", "--config", config, "--http", "127.0.0.1:0"], cwd=root,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 20
    while time.time() < deadline:
        found = re.search(r"(http://127\.0\.0\.1:\d+/)", process.stderr.readline())
        if found:
            threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
            return process, found.group(1)
        if process.poll() is not None:
            break
    process.kill()
    raise SystemExit("set-up failed: clarissa serve did not say where it serves")


def press(driver, script, timeout=30):
    """Runs the bookmarklet in the current page as a browser does (the `javascript:` URL
    percent-decoded, then run) and returns the answer's window's counts, or None when no window
    opened."""
    main = driver.current_window_handle
    before = set(driver.window_handles)
    driver.execute_script(urllib.parse.unquote(script[len("javascript:"):]))
    deadline = time.time() + 5
    while set(driver.window_handles) == before and time.time() < deadline:
        time.sleep(0.1)
    opened = [h for h in driver.window_handles if h not in before]
    if not opened:
        return None
    driver.switch_to.window(opened[0])
    deadline = time.time() + timeout
    while time.time() < deadline:
        if driver.find_elements("id", "capture-counts") or driver.find_elements("id", "capture-starred"):
            break
        time.sleep(0.2)
    counts = {"starred": bool(driver.find_elements("id", "capture-starred")), "title": driver.title}
    for cell in driver.find_elements("css selector", "#capture-counts tr[data-search='duesseldorf'] td[class]"):
        counts[cell.get_attribute("class")] = int(cell.text)
    driver.close()
    driver.switch_to.window(main)
    return counts


def checks(binary, root, c):
    work = tempfile.mkdtemp(prefix="clarissa-capture-")
    with open(os.path.join(root, FIXTURE), "rb") as handle:
        SitePage.body = handle.read()
    page_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SitePage)
    key, certificate = os.path.join(work, "site.key"), os.path.join(work, "site.crt")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    f"/CN={SITE}", "-addext", f"subjectAltName=DNS:{SITE}", "-keyout", key, "-out", certificate],
                   check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    page_server.socket = context.wrap_socket(page_server.socket, server_side=True)
    threading.Thread(target=page_server.serve_forever, daemon=True).start()
    port = page_server.server_address[1]
    config = os.path.join(work, "searches.yaml")
    with open(config, "w") as handle:
        handle.write(f"version: 1\nphotos: off\nsearches:\n  - name: duesseldorf\n"
                     f"    url: https://{SITE}{PAGE_PATH}\n    interval: 1h\n")
    serve, base = start_serve(binary, config, root)
    driver = None
    try:
        driver = browser(port)
        driver.get(base + "capture")
        script = driver.find_element("id", "bookmarklet").get_attribute("href")
        c.check("capture: /capture shows the bookmarklet, pointing at this server",
                script.startswith("javascript:") and (base + "capture") in urllib.parse.unquote(script))

        site_page = f"https://{SITE}:{port}{PAGE_PATH}"
        driver.get(site_page)
        c.check("capture: the site's page loads under the site's own name",
                driver.execute_script("return location.host") == f"{SITE}:{port}"
                and len(driver.find_elements("css selector", "article[data-adid]")) == 27)
        first = press(driver, script)
        c.check("capture: the bookmarklet opens the answer in a new window", first is not None, str(first))
        first = first or {}
        c.check("capture: 27 read, recorded as the search's first reading, none announced",
                first.get("read") == 27 and first.get("primed") == 27 and first.get("announced") == 0, str(first))
        listed = subprocess.run([binary, "listings", "--config", config, "--format", "json"], cwd=root,
                                capture_output=True, text=True)
        found = json.loads(listed.stdout or "[]") if listed.returncode == 0 else []
        sites = {entry["listing"]["site"] for entry in found}
        c.check("capture: the store has the 27 listings", len(found) == 27 and sites == {"kleinanzeigen"},
                f"{len(found)} {sites} {listed.stderr[-300:]}")

        second = press(driver, script) or {}
        c.check("capture: a second capture finds 27 known and none new",
                second.get("known") == 27 and second.get("new") == 0, str(second))

        # A listing's own page (its address as the store has it, on this script's port).
        address = urllib.parse.urlsplit(found[0]["listing"]["url"]) if found else None
        if address:
            driver.get(f"https://{SITE}:{port}{address.path}")
            starred = press(driver, script) or {}
            c.check("capture: a listing's page is starred", starred.get("starred") is True, str(starred))

        SitePage.walled = True
        driver.get(site_page)
        driver.set_script_timeout(10)
        violated = driver.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "document.addEventListener('securitypolicyviolation', function (e) {"
            " done(e.effectiveDirective); });"
            "setTimeout(function () { done(null); }, 5000);"
            + urllib.parse.unquote(script[len("javascript:"):]))
        c.check("capture: a site's CSP form-action stops the bookmarklet's form",
                violated == "form-action", str(violated))
    finally:
        if driver:
            driver.quit()
        serve.terminate()
        serve.wait(timeout=10)
        page_server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
