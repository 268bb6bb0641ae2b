"""The loopback feed and webhook receiver of .ci/crashes (see its docstring), and `say`."""

import email.utils
import http.server
import json
import random
import select
import socket
import threading
import time

WINDOW = 60  # items the feed keeps


def say(text=""):
    print(f"[crashes] {text}" if text else "", flush=True)


class Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Feed:
    """An RSS 2.0 feed that grows when told: the newest WINDOW items, newest first."""

    def __init__(self, rng):
        self.rng, self.lock = rng, threading.Lock()
        self.items, self.served = [], set()
        self.published = 0
        self.in_flight = 0
        self.requests = 0
        self.port = None

    def publish(self, count):
        with self.lock:
            for _ in range(count):
                self.published += 1
                number = self.published
                price = self.rng.randint(20, 900)
                self.items.append((f"crash-{number:05d}", number, price, time.time()))
            del self.items[:-WINDOW]

    def body(self):
        with self.lock:
            self.requests += 1
            window = list(reversed(self.items))
            self.served.update(guid for guid, *_ in window)
        base = f"http://127.0.0.1:{self.port}"
        entries = "".join(
            f"<item><title>Desk no. {number} ${price}</title>"
            f"<link>{base}/item/{number}</link><guid isPermaLink=\"false\">{guid}</guid>"
            f"<pubDate>{email.utils.formatdate(posted, usegmt=True)}</pubDate>"
            f"<description>Oak desk {number}, asking ${price}.</description></item>"
            for guid, number, price, posted in window)
        return (
            '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>'
            f"<title>crash feed</title><link>{base}/</link><description>items</description>"
            f"{entries}</channel></rss>").encode()

    def handler(self):
        feed = self

        class Handler(Quiet):
            def do_GET(self):
                with feed.lock:
                    feed.in_flight += 1
                try:
                    data = feed.body()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/rss+xml")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the run was killed mid-answer
                finally:
                    with feed.lock:
                        feed.in_flight -= 1

        return Handler


def peer_closed(connection):
    """The other end has closed (or reset) the connection: readable with nothing to read."""
    readable, _, _ = select.select([connection], [], [], 0)
    if not readable:
        return False
    try:
        return connection.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


class Receiver:
    """The webhook: records (channel, listing id, header key, body key, time) per accepted
    listing."""

    def __init__(self, seed, answer_ms=(0, 30)):
        self.rng, self.lock = random.Random(seed), threading.Lock()
        self.answer_ms = answer_ms
        self.accepted = []
        self.in_flight = self.requests = 0
        self.refused_by_kill = 0

    def delay(self):
        with self.lock:
            return self.rng.uniform(*self.answer_ms) / 1000

    def handle(self, request):
        channel = request.path.strip("/")
        arrived = time.monotonic()
        try:
            length = int(request.headers.get("Content-Length") or 0)
            payload = json.loads(request.rfile.read(length))
            time.sleep(self.delay())
            # A run killed while waiting has closed its end; a write could still succeed into the
            # dead connection, so look first: the answer goes only to a live run.
            if peer_closed(request.connection):
                raise ConnectionAbortedError
            answering = time.monotonic()
            request.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
            request.wfile.flush()
        except (OSError, ValueError):
            # Killed mid-request (a cut body) or before the answer was written: not accepted.
            with self.lock:
                self.refused_by_kill += 1
            return
        header = request.headers.get("Idempotency-Key")
        body_key = payload.get("idempotencyKey") or payload.get("idempotency_key")
        accepted = time.monotonic()
        with self.lock:
            for listing in payload.get("listings", []):
                self.accepted.append(
                    (channel, str(listing.get("id")), header, body_key, accepted, arrived,
                     answering))

    def handler(self):
        receiver = self

        class Handler(Quiet):
            def do_POST(self):
                with receiver.lock:
                    receiver.in_flight += 1
                    receiver.requests += 1
                try:
                    receiver.handle(self)
                finally:
                    with receiver.lock:
                        receiver.in_flight -= 1

        return Handler


def serve(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
