"""A loopback Web Push service for the webpush:// channel's tests (WebPushChannelTests).

It makes its own subscriptions, each a P-256 key pair and a 16-byte auth secret as a browser
would, prints them with its port as one JSON line, then answers on 127.0.0.1 only:
  /push/ok-*  201          /push/gone  410 (the browser unsubscribed)
  /push/busy  429 with Retry-After: 1 the first time, 201 after
  /push/fail  500
Each request it receives is written to SPOOL/N.json: the path, the headers the protocol
names (TTL, Urgency, Topic, Content-Encoding), the status answered, the payload decrypted with
http_ece using that subscription's private key and auth secret, and the VAPID JWT checked
with cryptography: its ES256 signature against the k= key, and its claims. It stops when its
standard input closes.
"""

import base64
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


NAMES = ["ok-1", "ok-2", "gone", "busy", "fail"]
spool = sys.argv[1]
os.makedirs(spool, exist_ok=True)
devices = {}
for name in NAMES:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    devices[name] = {"key": key, "auth": os.urandom(16), "public": public}
lock = threading.Lock()
state = {"count": 0, "busy": 0}


def check_vapid(header, origin):
    """The Authorization header's JWT checked: signature (ES256 by k=) and claims."""
    result = {"scheme": None, "signature": False, "claims": None, "k": None, "problems": []}
    if not header or not header.startswith("vapid "):
        result["problems"].append("no vapid authorization")
        return result
    result["scheme"] = "vapid"
    parts = dict(p.strip().split("=", 1) for p in header[6:].split(","))
    token, k = parts.get("t", ""), parts.get("k", "")
    result["k"] = k
    pieces = token.split(".")
    if len(pieces) != 3:
        result["problems"].append("the JWT is not three parts")
        return result
    head = json.loads(unb64url(pieces[0]))
    claims = json.loads(unb64url(pieces[1]))
    result["header"] = head
    result["claims"] = claims
    raw = unb64url(pieces[2])
    if head.get("alg") != "ES256" or len(raw) != 64:
        result["problems"].append("not ES256 with a 64-byte signature")
        return result
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(k))
    signature = utils.encode_dss_signature(
        int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(signature, (pieces[0] + "." + pieces[1]).encode(), ec.ECDSA(hashes.SHA256()))
        result["signature"] = True
    except InvalidSignature:
        result["problems"].append("the signature does not verify")
    now = time.time()
    if claims.get("aud") != origin:
        result["problems"].append("aud %r is not %r" % (claims.get("aud"), origin))
    if not isinstance(claims.get("exp"), int) or not now < claims["exp"] <= now + 86400:
        result["problems"].append("exp is not within 24 hours")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        result["problems"].append("sub is not mailto: or https:")
    return result


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        name = self.path.rsplit("/", 1)[-1]
        device = devices.get(name)
        record = {
            "path": self.path, "device": name,
            "ttl": self.headers.get("TTL"), "urgency": self.headers.get("Urgency"),
            "topic": self.headers.get("Topic"),
            "encoding": self.headers.get("Content-Encoding"),
            "type": self.headers.get("Content-Type"), "size": len(body),
            "vapid": check_vapid(
                self.headers.get("Authorization"), "http://127.0.0.1:%d" % self.server.server_port),
            "at": time.time(),
        }
        if device is not None:
            try:
                plain = http_ece.decrypt(
                    body, private_key=device["key"], auth_secret=device["auth"],
                    version="aes128gcm")
                record["payload"] = json.loads(plain)
                record["plaintext_size"] = len(plain)
            except Exception as error:  # reported, for the test to show
                record["decrypt_error"] = repr(error)
        status, headers = 201, {}
        if device is None:
            status = 404
        elif name == "gone":
            status = 410
        elif name == "fail":
            status = 500
        elif name == "busy":
            with lock:
                state["busy"] += 1
                if state["busy"] == 1:
                    status, headers = 429, {"Retry-After": "1"}
        record["status"] = status
        with lock:
            index = state["count"]
            state["count"] += 1
            with open(os.path.join(spool, "%d.json" % index), "w") as out:
                json.dump(record, out)
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", "0")
        self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
port = server.server_port
subscriptions = {
    name: {
        "endpoint": "http://127.0.0.1:%d/push/%s" % (port, name), "expirationTime": None,
        "keys": {"p256dh": b64url(d["public"]), "auth": b64url(d["auth"])},
    }
    for name, d in devices.items()
}
print(json.dumps({"port": port, "subscriptions": subscriptions}), flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
