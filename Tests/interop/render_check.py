#!/usr/bin/env python3
"""MapLibre Native (PyPI `pymgl`) draws the offline map, and the drawings are compared.

    EGL_PLATFORM=surfaceless python3 Tests/interop/render_check.py --out-dir DIR \
        --server http://127.0.0.1:PORT --style-id basic --reference samples/liechtenstein.mbtiles \
        [--pmtiles X.pmtiles] [--mbtiles Y.mbtiles] [--center 9.53,47.12] [--zoom 13] [--size 512x384]

Renders the same view of the sample style (samples/style) several ways:
  reference  straight from the source MBTiles (mbtiles://), sprite and glyphs from samples/style (file://)
  server     the style from `tilestore serve` (/styles/ID/style.json): TileJSON, tiles, sprite and
             glyphs all over http from the server
  mbtiles    an exported MBTiles file (mbtiles://)
  pmtiles    an exported PMTiles archive, read with the `pmtiles` package and handed to MapLibre by a
             small loopback HTTP server in this script (pymgl 0.5 has no pmtiles:// protocol)
Each image must show the map: at least 6 distinct colours each on >= 0.2 % of the pixels, and at
least 3 of the style's own fill/background colours present. Each must equal the reference but for
at most --tolerance (default 0.5 %) of its pixels differing by more than 8 in some channel. Writes
DIR/<name>.png and prints one JSON line per image; exits 1 on any failure.
"""
import argparse
import http.server
import json
import os
import sys
import threading

import numpy
import pmtiles.reader
import pmtiles.tile
import requests
from pymgl import Map

HERE = os.path.dirname(os.path.abspath(__file__))
STYLE_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "samples", "style"))


def sample_style(source_url):
    with open(os.path.join(STYLE_DIR, "style.json")) as f:
        style = json.load(f)
    style["sources"]["openmaptiles"] = {"type": "vector", "url": source_url}
    style["sprite"] = "file://" + os.path.join(STYLE_DIR, "sprite")
    style["glyphs"] = "file://" + os.path.join(STYLE_DIR, "glyphs", "{fontstack}/{range}.pbf")
    return style


def style_colours(style):
    """RGB triples of the constant background/fill colours the style's layers paint."""
    out = set()
    for layer in style["layers"]:
        for key in ("background-color", "fill-color"):
            v = layer.get("paint", {}).get(key)
            if isinstance(v, str) and v.startswith("#") and len(v) == 7:
                out.add(tuple(int(v[i:i + 2], 16) for i in (1, 3, 5)))
    return out


def serve_pmtiles(path):
    """A loopback HTTP server handing MapLibre the archive's tiles as the pmtiles package reads them."""
    f = open(path, "rb")
    reader = pmtiles.reader.Reader(pmtiles.reader.MmapSource(f))
    header = reader.header()
    meta = reader.metadata()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            port = self.server.server_address[1]
            data = None
            if self.path == "/tiles.json":
                body = json.dumps({"tilejson": "3.0.0", "tiles": [f"http://127.0.0.1:{port}/{{z}}/{{x}}/{{y}}"],
                                   "minzoom": header["min_zoom"], "maxzoom": header["max_zoom"],
                                   "vector_layers": meta.get("vector_layers", [])}).encode()
            else:
                data = None
                parts = self.path.strip("/").split("/")
                data = reader.get(*map(int, parts)) if len(parts) == 3 and all(p.isdigit() for p in parts) else None
                if data is None:
                    self.send_response(204)
                    self.end_headers()
                    return
                body = data
            self.send_response(200)
            if body is data and header["tile_compression"] == pmtiles.tile.Compression.GZIP:
                self.send_header("Content-Encoding", "gzip")   # as a tile server says it; curl inflates
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def render(style, args):
    width, height = (int(v) for v in args.size.split("x"))
    lon, lat = (float(v) for v in args.center.split(","))
    m = Map(json.dumps(style), width, height, args.ratio, lon, lat, args.zoom)
    return numpy.array(m.renderBuffer()).reshape(height, width, 4), m.renderPNG()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--server", help="base URL of tilestore serve")
    ap.add_argument("--style-id", default="basic")
    ap.add_argument("--reference", help="the source MBTiles")
    ap.add_argument("--pmtiles")
    ap.add_argument("--mbtiles")
    ap.add_argument("--center", default="9.53,47.12")
    ap.add_argument("--zoom", type=float, default=13)
    ap.add_argument("--size", default="512x384")
    ap.add_argument("--ratio", type=int, default=1)
    ap.add_argument("--tolerance", type=float, default=0.005, help="fraction of pixels allowed to differ")
    ap.add_argument("--only", help="render just this one (server) to DIR/NAME.png, no comparison")
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)

    colours = style_colours(sample_style(""))
    jobs = []
    if args.server:
        r = requests.get(f"{args.server}/styles/{args.style_id}/style.json", timeout=30)
        r.raise_for_status()
        jobs.append(("server", r.json()))
    if args.only:
        jobs = [(args.only, jobs[0][1])]
    if args.reference:
        jobs.insert(0, ("reference", sample_style("mbtiles://" + os.path.abspath(args.reference))))
    if args.mbtiles:
        jobs.append(("mbtiles", sample_style("mbtiles://" + os.path.abspath(args.mbtiles))))
    if args.pmtiles:
        server = serve_pmtiles(args.pmtiles)
        jobs.append(("pmtiles", sample_style(f"http://127.0.0.1:{server.server_address[1]}/tiles.json")))

    failures = 0
    reference = None
    for name, style in jobs:
        pixels, png = render(style, args)
        with open(os.path.join(args.out_dir, name + ".png"), "wb") as f:
            f.write(png)
        rgb = pixels[:, :, :3].reshape(-1, 3)
        values, counts = numpy.unique(rgb, axis=0, return_counts=True)
        major = int((counts >= 0.002 * len(rgb)).sum())
        present = sum(1 for c in colours if (numpy.abs(rgb.astype(int) - c).max(axis=1) <= 2).any())
        result = {"image": name, "colours": int(len(values)), "majorColours": major, "styleColours": present}
        ok = major >= 6 and present >= 3
        if name == "reference":
            reference = pixels
        elif reference is not None:
            diff = numpy.abs(pixels.astype(int) - reference.astype(int)).max(axis=2)
            changed = float((diff > 8).mean())
            result["differingPixels"] = changed
            result["identical"] = bool((diff == 0).all())
            ok = ok and changed <= args.tolerance
        result["ok"] = ok
        failures += not ok
        print(json.dumps(result), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
