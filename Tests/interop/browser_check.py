#!/usr/bin/env python3
"""The viewer page of `tilestore serve` in a real browser: headless Chromium (Debian's `chromium`
or `chromium-headless-shell`) driven over the DevTools protocol (websocket-client).

    python3 Tests/interop/browser_check.py --server http://127.0.0.1:PORT --out-dir DIR \
        [--view 9.535,47.125,12.5] [--route 9.5215,47.1410;9.4990,47.0660] [--size 1000x700] [--native]

Opens SERVER/viewer#lon,lat,zoom on loopback, waits until the page says the map is idle
(window.offgrid.idle), takes a screenshot (DIR/viewer.png) and checks that the map drew (at least 6
distinct colours each on >= 0.2 % of the map's pixels) and that every request the page made went to
the server and succeeded: maplibre-gl.js, the style, glyphs, tiles. With --native, MapLibre Native
(pymgl) renders the same view from the same style (DIR/viewer-native.png): the two drawings must
agree by blocks of 16x16 pixels (mean colour within 24 per channel for >= 85 % of blocks; labels
and antialiasing differ). With --route, it CLICKS the two points (their pixels from the map's own
projection), waits for the route, takes DIR/viewer-route.png and checks the route's colour is drawn
there and not before, and that steps are listed. Prints one JSON line; exits 1 on any failure.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib

import numpy
import websocket

ROUTE_RGB = (0xE0, 0x11, 0x5F)


def chromium():
    for name in (os.environ.get("OFFGRID_CHROMIUM"), "chromium", "chromium-headless-shell", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    for path in ("/usr/lib/chromium/chromium", "/usr/lib/chromium/chrome-headless-shell"):
        if os.access(path, os.X_OK):
            return path
    sys.exit("browser_check: no chromium (run `make test-deps`: it installs Debian's chromium-headless-shell)")


def decode_png(data):
    """8-bit RGB/RGBA non-interlaced PNG → HxWx3 uint8 array (what Chromium's screenshots are)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big"), body[8], body[9], body[10], body[11], body[12]
            assert depth == 8 and colour in (2, 6) and interlace == 0, ("unsupported PNG", depth, colour, interlace)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = numpy.frombuffer(zlib.decompress(idat), dtype=numpy.uint8)
    stride = width * channels
    rows = raw.reshape(height, stride + 1)
    out = numpy.zeros((height, stride), dtype=numpy.int32)
    prev = numpy.zeros(stride, dtype=numpy.int32)
    for y in range(height):
        f, line = rows[y, 0], rows[y, 1:].astype(numpy.int32)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) & 255
        else:
            cur = numpy.zeros(stride, dtype=numpy.int32)
            for x in range(stride):
                a = cur[x - channels] if x >= channels else 0
                b = prev[x]
                c = prev[x - channels] if x >= channels else 0
                if f == 1:
                    p = a
                elif f == 3:
                    p = (a + b) // 2
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[x] = (line[x] + p) & 255
        out[y] = cur
        prev = cur
    return out.reshape(height, width, channels)[:, :, :3].astype(numpy.uint8)


def drew(rgb):
    flat = rgb.reshape(-1, 3)
    _, counts = numpy.unique(flat, axis=0, return_counts=True)
    return int((counts >= 0.002 * len(flat)).sum())


class Browser:
    def __init__(self, size):
        self.profile = tempfile.mkdtemp(prefix="offgrid-chromium-")
        w, h = size
        self.process = subprocess.Popen(
            [chromium(), "--headless", "--no-sandbox", "--disable-gpu-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--ignore-gpu-blocklist", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
             f"--window-size={w},{h}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or self.process.poll() is not None:
                self.close()
                sys.exit("browser_check: chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        port = int(open(port_file).read().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mine:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)
                if msg["method"] == "Target.attachedToTarget":
                    # A worker of the page (MapLibre fetches tiles in web workers): its requests too.
                    sid = msg["params"]["sessionId"]
                    for m in ("Network.enable", "Runtime.runIfWaitingForDebugger"):
                        self.next_id += 1
                        self.ws.send(json.dumps({"id": self.next_id, "sessionId": sid, "method": m, "params": {}}))

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return r.get("result", {}).get("value")

    def wait_for(self, expression, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        return None

    def screenshot(self, path):
        png = base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
        with open(path, "wb") as f:
            f.write(png)
        return png

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def native(server, style_url, size, view):
    """MapLibre Native's drawing of the same view from the same style (pymgl)."""
    import requests
    from pymgl import Map
    style = requests.get(style_url, timeout=30).json()
    w, h = size
    m = Map(json.dumps(style), w, h, 1, view[0], view[1], view[2])
    return numpy.array(m.renderBuffer()).reshape(h, w, 4)[:, :, :3], m.renderPNG()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--view", default="9.535,47.125,12.5")
    ap.add_argument("--route", help="lon,lat;lon,lat: click these two points")
    ap.add_argument("--size", default="1000x700")
    ap.add_argument("--native", action="store_true")
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    size = tuple(int(v) for v in args.size.split("x"))
    view = [float(v) for v in args.view.split(",")]
    failures = []
    result = {"server": args.server}
    b = Browser(size)
    try:
        b.call("Page.enable")
        b.call("Network.enable")
        b.call("Target.setAutoAttach", autoAttach=True, waitForDebuggerOnStart=True, flatten=True)
        b.call("Emulation.setDeviceMetricsOverride", width=size[0], height=size[1], deviceScaleFactor=1, mobile=False)
        started = time.time()
        b.call("Page.navigate", url=f"{args.server}/viewer#{args.view}")
        if not b.wait_for("window.offgrid && window.offgrid.idle", args.timeout):
            failures.append("the map never went idle: " + json.dumps(b.evaluate("JSON.stringify(window.offgrid || null)")))
        result["idleSeconds"] = round(time.time() - started, 3)
        state = json.loads(b.evaluate("JSON.stringify(window.offgrid)") or "{}")
        if state.get("error"):
            failures.append("the page reported an error: " + state["error"])
        canvas = b.evaluate("(() => { const r = document.querySelector('#map canvas').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
        shot = decode_png(b.screenshot(os.path.join(args.out_dir, "viewer.png")))
        x0, y0, cw, ch = (int(round(v)) for v in canvas)
        mapped = shot[y0:y0 + ch, x0:x0 + cw]
        result["mapColours"] = drew(mapped)
        if result["mapColours"] < 6:
            failures.append(f"the map did not draw: {result['mapColours']} major colours")
        # Every request the page made: to the server, answered 200/204/304.
        responses = [e["params"]["response"] for e in b.events if e["method"] == "Network.responseReceived"]
        foreign = sorted({r["url"] for r in responses if not r["url"].startswith(args.server) and not r["url"].startswith(("data:", "blob:" + args.server))})
        bad = sorted({(r["url"], r["status"]) for r in responses if r["url"].startswith(args.server) and r["status"] not in (200, 204, 304)})
        kinds = {k: sum(1 for r in responses if k in r["url"] and not (k == "/tiles/" and r["url"].endswith(".json")))
                 for k in ("/viewer/maplibre-gl.js", "/style.json", "/fonts/", "/tiles/")}
        result["requests"] = kinds
        if os.environ.get("BROWSER_CHECK_DEBUG"):
            print(sorted({r["url"] for r in responses}), file=sys.stderr)
        if foreign:
            failures.append(f"requests left the server: {foreign[:3]}")
        if bad:
            failures.append(f"failed requests: {bad[:3]}")
        for k in ("/viewer/maplibre-gl.js", "/tiles/") + (("/style.json", "/fonts/") if state.get("style") != "plain" else ()):
            if not kinds.get(k):
                failures.append(f"the page fetched no {k}")
        if args.native and state.get("style") not in (None, "plain"):
            reference, png = native(args.server, state["style"], (cw, ch), view)
            with open(os.path.join(args.out_dir, "viewer-native.png"), "wb") as f:
                f.write(png)
            bh, bw = ch // 16, cw // 16
            a = mapped[:bh * 16, :bw * 16].reshape(bh, 16, bw, 16, 3).mean(axis=(1, 3))
            n = reference[:bh * 16, :bw * 16].reshape(bh, 16, bw, 16, 3).mean(axis=(1, 3))
            close = float((numpy.abs(a - n).max(axis=2) <= 24).mean())
            result["nativeAgreement"] = round(close, 4)
            if close < 0.85:
                failures.append(f"the browser's drawing differs from MapLibre Native's: {close:.1%} of 16x16 blocks agree")
        before = int((numpy.abs(mapped.astype(int) - ROUTE_RGB).max(axis=2) <= 12).sum())
        if args.route:
            points = [[float(v) for v in p.split(",")] for p in args.route.split(";")]
            for lon, lat in points:
                px = b.evaluate(f"(() => {{ const p = window.offgridMap.project([{lon}, {lat}]); return [p.x, p.y]; }})()")
                b.click(x0 + px[0], y0 + px[1])
                time.sleep(0.3)
            title = b.wait_for("document.title.endsWith('route') || document.title.endsWith('route-error') ? document.title : ''", args.timeout)
            state = json.loads(b.evaluate("JSON.stringify(window.offgrid)") or "{}")
            result["route"] = state.get("route")
            if not title or title.endswith("route-error"):
                failures.append(f"no route drawn: {title} {state.get('error')}")
            else:
                routed = decode_png(b.screenshot(os.path.join(args.out_dir, "viewer-route.png")))[y0:y0 + ch, x0:x0 + cw]
                after = int((numpy.abs(routed.astype(int) - ROUTE_RGB).max(axis=2) <= 12).sum())
                result["routePixels"] = after
                if after < 200 or before > 20:
                    failures.append(f"the route line is not drawn ({after} route-coloured pixels after, {before} before)")
                if not state.get("route") or state["route"]["steps"] < 2:
                    failures.append("no steps listed")
    finally:
        b.close()
    result["ok"] = not failures
    result["failures"] = failures
    print(json.dumps(result), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
