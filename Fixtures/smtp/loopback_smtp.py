"""A loopback SMTP server for clarissa's mail tests (aiosmtpd), on 127.0.0.1 only.

usage: loopback_smtp.py MODE SPOOL [CERT KEY]
  plain     accepts mail, offers no STARTTLS
  starttls  requires STARTTLS (with the test-only identity in Fixtures/tls/)
  tls       TLS from the first byte, as on port 465 (the same identity)
  silent    accepts connections and never says a word (not even the greeting)
Each accepted mail is written to SPOOL/N.eml, its envelope to SPOOL/N.json. While a file
SPOOL/refuse exists, every mail is refused with 550. The chosen port is printed on the first
line of stdout; the server ends when its stdin closes (the test ended or died).
"""
import json
import os
import socket
import ssl
import sys
import threading
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main():
    mode, spool = sys.argv[1], sys.argv[2]
    os.makedirs(spool, exist_ok=True)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    if mode == "silent":
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        print(listener.getsockname()[1], flush=True)
        held = []
        while True:
            connection, _ = listener.accept()
            held.append(connection)  # kept open, never written to

    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            if os.path.exists(os.path.join(spool, "refuse")):
                return "550 5.7.1 mailbox unavailable for clarissa's test"
            number = len([n for n in os.listdir(spool) if n.endswith(".eml")])
            with open(os.path.join(spool, f"{number}.json"), "w") as out:
                json.dump({"from": envelope.mail_from, "to": envelope.rcpt_tos,
                           "tls": session.ssl is not None}, out)
            with open(os.path.join(spool, f"{number}.eml"), "wb") as out:
                out.write(envelope.original_content)
            return "250 OK"

    def authenticate(server, session, envelope, mechanism, data):
        with open(os.path.join(spool, "auth.txt"), "w") as out:
            out.write(f"{data.login.decode()}:{data.password.decode()}")
        return AuthResult(success=True)

    options = {"auth_require_tls": False, "authenticator": authenticate}
    if mode == "starttls":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        options.update(tls_context=context, require_starttls=True)
    if mode == "tls":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
        options.update(ssl_context=context)
    port = free_port()
    controller = Controller(Handler(), hostname="127.0.0.1", port=port, **options)
    controller.start()
    print(port, flush=True)
    while True:
        time.sleep(3600)


main()
