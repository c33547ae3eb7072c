#!/usr/bin/env python3
"""A real HTTP client (Python's http.client and raw sockets) checks `tilestore serve`.

    python3 Tests/interop/check_serve.py --server http://127.0.0.1:PORT --source samples/liechtenstein.mbtiles \
        --style-dir samples/style --region-bbox 9.47,47.04,9.64,47.21 [--absent Z/X/Y] [--fuzz 3000]

Checks: the index and TileJSON 3.0.0 (tiles template on this server, bounds, zooms, vector_layers);
tiles byte-equal to the source MBTiles with Content-Encoding gzip, ETag and Cache-Control, 304 for
If-None-Match, HEAD without a body; 204 for a tile inside a region's cover the store does not hold
(--absent), 404 outside, 400 for bad coordinates; the style with sources, sprite and glyphs pointed
at the server; sprites and glyph ranges byte-equal to samples/style, a font stack served from its
first font that has the range; then --fuzz hostile requests (never a 5xx, never a file outside the
store), after which a good request is still answered. Prints a JSON summary; exits 1 on failure.
"""
import argparse
import http.client
import json
import math
import os
import random
import socket
import sqlite3
import sys
import urllib.parse

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


class Client:
    def __init__(self, base):
        u = urllib.parse.urlsplit(base)
        self.host, self.port = u.hostname, u.port
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def get(self, path, headers=None, method="GET"):
        for attempt in range(2):
            try:
                self.conn.request(method, path, headers=headers or {})
                r = self.conn.getresponse()
                return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt:
                    raise


def tile_of(lon, lat, z):
    n = 1 << z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    return x, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--style-dir", required=True)
    ap.add_argument("--style-id", default="basic")
    ap.add_argument("--region-bbox", required=True)
    ap.add_argument("--absent", help="Z/X/Y of a tile in a region's cover that no pack holds")
    ap.add_argument("--fuzz", type=int, default=2000)
    a = ap.parse_args()
    c = Client(a.server)
    base = a.server.rstrip("/")
    summary = {}

    status, _, body = c.get("/")
    check(status == 200, "GET / answers 200")
    index = json.loads(body)
    check(len(index["tilesets"]) >= 1, "the index lists a tileset")
    name = index["tilesets"][0]["name"]
    enc = urllib.parse.quote(name, safe="")

    status, h, body = c.get(f"/tiles/{enc}.json")
    check(status == 200 and h.get("content-type") == "application/json", "TileJSON answers 200 application/json")
    tj = json.loads(body)
    check(tj["tilejson"] == "3.0.0", "tilejson 3.0.0")
    check(tj["tiles"] == [f"{base}/tiles/{enc}/{{z}}/{{x}}/{{y}}"], f"tiles template on this server: {tj['tiles']}")
    check(len(tj["bounds"]) == 4 and tj["bounds"][0] < tj["bounds"][2], "bounds")
    check(0 <= tj["minzoom"] <= tj["maxzoom"] <= 30, "zooms")
    check(len(tj.get("vector_layers", [])) >= 5 and all("id" in l and "fields" in l for l in tj["vector_layers"]), "vector_layers")
    etag = h.get("etag")
    status, _, _ = c.get(f"/tiles/{enc}.json", {"If-None-Match": etag})
    check(status == 304, "TileJSON 304 for its ETag")
    summary["tilejson"] = {k: tj[k] for k in ("minzoom", "maxzoom", "bounds")}

    # Tiles: every source tile in the region bbox at z10-14 that the server has equals the source's.
    w, s, e, n = (float(v) for v in a.region_bbox.split(","))
    db = sqlite3.connect(a.source)
    same = served = 0
    first = None
    for z in range(max(tj["minzoom"], 10), min(tj["maxzoom"], 14) + 1):
        x0, y0 = tile_of(w, n, z)
        x1, y1 = tile_of(e, s, z)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                row = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                                 (z, x, (1 << z) - 1 - y)).fetchone()
                status, h, body = c.get(f"/tiles/{enc}/{z}/{x}/{y}")
                check(status in (200, 204), f"tile {z}/{x}/{y} in the region bbox answers 200 or 204, got {status}")
                if status == 200:
                    served += 1
                    same += row is not None and bytes(row[0]) == body
                    check(h.get("content-encoding") == "gzip" and h.get("content-type") == "application/vnd.mapbox-vector-tile"
                          and h.get("etag") and "max-age" in h.get("cache-control", ""), f"tile {z}/{x}/{y} headers {h}")
                    first = first or (z, x, y, h.get("etag"), len(body))
    check(served >= 20 and same == served, f"served tiles equal the source's: {same} of {served}")
    summary["tilesCompared"] = served
    z, x, y, tag, length = first
    status, h, body = c.get(f"/tiles/{enc}/{z}/{x}/{y}", {"If-None-Match": tag})
    check(status == 304 and body == b"" and h.get("etag") == tag, "tile 304 for its ETag")
    status, h, body = c.get(f"/tiles/{enc}/{z}/{x}/{y}", {"If-None-Match": '"other"'})
    check(status == 200, "tile 200 for another ETag")
    status, h, body = c.get(f"/tiles/{enc}/{z}/{x}/{y}", method="HEAD")
    check(status == 200 and body == b"" and h.get("content-length") == str(length), f"HEAD: {status} {h.get('content-length')} {length}")
    status, _, _ = c.get(f"/tiles/{enc}/{z}/{x}/{y}.pbf")
    check(status == 200, "an extension on y is accepted")
    if a.absent:
        status, _, body = c.get(f"/tiles/{enc}/{a.absent}")
        check(status == 204 and body == b"", f"tile {a.absent} in a cover but not stored: 204, got {status}")
    for path, want in [(f"/tiles/{enc}/14/0/0", 404), (f"/tiles/{enc}/{tj['maxzoom'] + 1}/0/0", 404),
                       ("/tiles/no-such-tileset/1/0/0", 404), ("/tiles/no-such-tileset.json", 404),
                       (f"/tiles/{enc}/3/8/0", 400), (f"/tiles/{enc}/31/0/0", 400), (f"/tiles/{enc}/a/b/c", 400),
                       (f"/tiles/{enc}/-1/0/0", 400), (f"/tiles/{enc}/1/0", 404)]:
        status, _, _ = c.get(path)
        check(status == want, f"{path}: {want}, got {status}")
    status, h, _ = c.get(f"/tiles/{enc}/{z}/{x}/{y}", method="POST")
    check(status == 405, f"POST: 405, got {status}")

    # The style, sprites and glyphs.
    status, h, body = c.get(f"/styles/{a.style_id}/style.json")
    check(status == 200, "style 200")
    style = json.loads(body)
    check(style["sources"]["openmaptiles"]["url"] == f"{base}/tiles/{enc}.json", f"source url {style['sources']['openmaptiles']}")
    check(style["sprite"] == f"{base}/styles/{a.style_id}/sprite", f"sprite {style['sprite']}")
    check(style["glyphs"] == f"{base}/fonts/{{fontstack}}/{{range}}.pbf", f"glyphs {style['glyphs']}")
    with open(os.path.join(a.style_dir, "style.json")) as f:
        check(len(style["layers"]) == len(json.load(f)["layers"]), "every layer kept")
    status, _, _ = c.get(f"/styles/{a.style_id}/style.json", {"If-None-Match": h.get("etag")})
    check(status == 304, "style 304 for its ETag")
    for f in ("sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"):
        status, h, body = c.get(f"/styles/{a.style_id}/{f}")
        check(status == 200 and body == open(os.path.join(a.style_dir, f), "rb").read(), f"{f} equals samples/style/{f}")
        check(h.get("content-type") == ("image/png" if f.endswith("png") else "application/json"), f"{f} content type")
    status, _, _ = c.get(f"/styles/{a.style_id}/sprite@3x.png")
    check(status == 404, "sprite@3x: 404")
    status, _, _ = c.get("/styles/no-such-style/style.json")
    check(status == 404, "unknown style: 404")
    book = open(os.path.join(a.style_dir, "glyphs", "DejaVu Sans Book", "0-255.pbf"), "rb").read()
    bold = open(os.path.join(a.style_dir, "glyphs", "DejaVu Sans Bold", "256-511.pbf"), "rb").read()
    for path, want, data in [("/fonts/DejaVu%20Sans%20Book/0-255.pbf", 200, book),
                             ("/fonts/No%20Such%20Font,DejaVu%20Sans%20Bold/256-511.pbf", 200, bold),
                             ("/fonts/DejaVu%20Sans%20Book,DejaVu%20Sans%20Bold/0-255.pbf", 200, book),
                             ("/fonts/No%20Such%20Font/0-255.pbf", 404, None), ("/fonts/DejaVu%20Sans%20Book/1-2.pbf", 400, None),
                             ("/fonts/DejaVu%20Sans%20Book/65536-65791.pbf", 400, None)]:
        status, h, body = c.get(path)
        check(status == want and (data is None or body == data), f"{path}: {want}, got {status}")
    status, h, _ = c.get("/fonts/DejaVu%20Sans%20Book/0-255.pbf")
    status, _, _ = c.get("/fonts/DejaVu%20Sans%20Book/0-255.pbf", {"If-None-Match": h.get("etag")})
    check(status == 304, "glyphs 304 for their ETag")

    # Hostile requests: answered 4xx (or the connection closed for bytes that are not HTTP), never
    # a 5xx, never a file's content; then a good request still works.
    rng = random.Random(12)
    pieces = ["..", "%2e%2e", "%2F", "%00", "%zz", "%", "etc", "passwd", "tiles", "styles", "fonts", enc, "99999999999",
              "-1", "0", "14", "8623", "5759", "style.json", "sprite@2x.png", "0-255.pbf", "%C3%28", "\u00e9", ";", "?", "#",
              "a" * 300, "{z}", "%25", "+", ".json", "..%2f..%2f"]
    statuses = {}
    for i in range(a.fuzz):
        path = "/" + "/".join(rng.choice(pieces) for _ in range(rng.randint(0, 7)))
        path = urllib.parse.quote(path, safe="/%;?#+.-") if rng.random() < 0.5 else path.encode("utf-8", "replace").decode("latin-1")
        try:
            status, _, body = c.get(path)
        except Exception:
            status = "closed"
        statuses[status] = statuses.get(status, 0) + 1
        check(status == "closed" or status < 500, f"fuzz {path!r}: {status}")
        check(b"root:" not in (body or b""), f"fuzz {path!r} returned a file")
    for raw in [b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", b"\x00\x01\x02garbage\r\n\r\n",
                b"GET /tiles/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", b"GET / HTTP/1.1\r\nHost: \xff\xfe\r\n\r\n",
                b"GET /health HTTP/1.1\r\n" + b"X: " + b"y" * 100000 + b"\r\n\r\n", b"GET /heal"]:
        s = socket.create_connection((c.host, c.port), timeout=10)
        try:
            s.sendall(raw)
            s.shutdown(socket.SHUT_WR)
            answer = s.recv(200)
        except OSError:
            answer = b""
        s.close()
        check(not answer.startswith(b"HTTP/1.1 5") and b"root:" not in answer, f"raw {raw[:40]!r}: {answer[:40]!r}")
    summary["fuzz"] = {str(k): v for k, v in sorted(statuses.items(), key=str)}
    c = Client(a.server)
    status, _, body = c.get(f"/tiles/{enc}/{z}/{x}/{y}")
    check(status == 200 and len(body) == length, "a good tile after the fuzzing")
    summary["failures"] = failures
    print(json.dumps(summary))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
