"""A fault-injecting HTTP proxy for the repository client's tests (loopback only, stdlib only).

    python fault_proxy.py UPSTREAM_PORT FAULTS_JSON LOG_NDJSON PORT_FILE

Forwards GETs to http://127.0.0.1:UPSTREAM_PORT and writes its own port to PORT_FILE. Before each
request it reads FAULTS_JSON ({"mode": M, "match": SUBSTRING, "remaining": N}; N < 0 = always)
and, for a matching path while N != 0, injects fault M (and decrements N):
  drop        send the headers and half the body, then reset the connection
  truncate    send the headers (full Content-Length) and half the body, then close cleanly
  corrupt     send the full body with bytes changed
  404 / 500 / 503   answer that status
  slow        send the headers, then stall for 30 s
  delay       wait 1 s, then forward as is (requests that arrive meanwhile overlap)
  norange     forward without the Range header (the server answers 200 with everything)
  redirect-loop     answer 302 to the same URL
Every response is logged to LOG_NDJSON: {"path", "range", "status", "bytes", "fault"}.
"""
import http.client
import http.server
import json
import socket
import struct
import sys
import threading
import time

UPSTREAM, FAULTS, LOG, PORT_FILE = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
lock = threading.Lock()


def take_fault(path):
    with lock:
        try:
            with open(FAULTS) as f:
                spec = json.load(f)
        except (OSError, ValueError):
            return None
        mode, match, remaining = spec.get("mode"), spec.get("match", ""), spec.get("remaining", -1)
        if not mode or match not in path or remaining == 0:
            return None
        if remaining > 0:
            spec["remaining"] = remaining - 1
            with open(FAULTS + ".tmp", "w") as f:
                json.dump(spec, f)
            import os
            os.replace(FAULTS + ".tmp", FAULTS)
        return mode


def log(entry):
    with lock:
        with open(LOG, "a") as f:
            f.write(json.dumps(entry) + "\n")


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        fault = take_fault(self.path)
        entry = {"path": self.path, "range": self.headers.get("Range"), "fault": fault, "bytes": 0}
        if fault in ("404", "500", "503"):
            body = b"fault\n"
            self.send_response(int(fault))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            entry.update(status=int(fault))
            log(entry)
            return
        if fault == "redirect-loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            entry.update(status=302)
            log(entry)
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        if fault == "norange":
            headers.pop("Range", None)
        if fault == "delay":
            time.sleep(1)
        conn = http.client.HTTPConnection("127.0.0.1", UPSTREAM, timeout=60)
        conn.request("GET", self.path, headers=headers)
        resp = conn.getresponse()
        body = resp.read()
        conn.close()
        self.send_response(resp.status)
        for k, v in resp.getheaders():
            if k.lower() not in ("connection", "transfer-encoding", "keep-alive", "server", "date", "content-length"):
                self.send_header(k, v)
        # The body was read whole (chunked or not): its length, even when only part of it is sent.
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        entry.update(status=resp.status)
        if fault == "slow":
            log(entry)
            time.sleep(30)
            self.close_connection = True
            return
        if fault in ("drop", "truncate"):
            half = body[: len(body) // 2]
            self.wfile.write(half)
            self.wfile.flush()
            entry["bytes"] = len(half)
            log(entry)
            if fault == "drop":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            return
        if fault == "corrupt" and body:
            body = bytes(b ^ 0x5A for b in body[:64]) + body[64:]
        self.wfile.write(body)
        entry["bytes"] = len(body)
        log(entry)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
server.daemon_threads = True
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os
os.replace(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
