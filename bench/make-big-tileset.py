#!/usr/bin/env python3
"""Makes a large MBTiles tileset for bench/tilepack-maps by replicating the sample's tiles.

    python3 bench/make-big-tileset.py [--bbox 6,45,14,49] [--minzoom 0] [--maxzoom 14] OUT.mbtiles

Every tile coordinate of zooms minzoom..maxzoom whose tile meets the bbox gets the bytes of one
of samples/liechtenstein.mbtiles' tiles of the same zoom (the tiles of the nearest zoom the sample
has when it has none), picked by a hash of (z, x, y): real gzip MVT bytes of realistic sizes,
~10 kB at zoom 13-14. Each copy gets its own gzip MTIME header field (bytes 4-7), so every tile's
bytes differ as in a real tileset while decompressing to the sample's tile (`--shared` keeps
the copies byte-identical, which lets deduplicating writers store 178 tiles in all). Metadata is the
sample's (name, format pbf, json) with the bbox as bounds and the zoom range given. The default
makes ~129,000 tiles, ~1.3 GB. Deterministic: the same arguments give the same tiles. The
PMTiles copy is made from it with `pmtiles-convert` (the `pmtiles` PyPI package).
"""
import argparse, math, os, sqlite3, struct, sys, zlib

ap = argparse.ArgumentParser()
ap.add_argument("--bbox", default="6,45,14,49")
ap.add_argument("--minzoom", type=int, default=0)
ap.add_argument("--maxzoom", type=int, default=14)
ap.add_argument("--shared", action="store_true", help="keep repeated tiles byte-identical (default: every tile unique)")
ap.add_argument("--sample", default=os.path.join(os.path.dirname(__file__), "..", "samples", "liechtenstein.mbtiles"))
ap.add_argument("out")
a = ap.parse_args()
w, s, e, n = (float(v) for v in a.bbox.split(","))

src = sqlite3.connect(a.sample)
by_zoom = {}
for z, x, y, data in src.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY zoom_level, tile_column, tile_row"):
    by_zoom.setdefault(z, []).append(bytes(data))
meta = dict(src.execute("SELECT name, value FROM metadata"))
src.close()

def col(lon, z): return min((1 << z) - 1, max(0, int((lon + 180) / 360 * (1 << z))))
def row(lat, z):
    p = math.radians(lat)
    return min((1 << z) - 1, max(0, int((1 - math.log(math.tan(p) + 1 / math.cos(p)) / math.pi) / 2 * (1 << z))))

tmp = a.out + ".tmp"
if os.path.exists(tmp): os.remove(tmp)
db = sqlite3.connect(tmp)
db.execute("PRAGMA journal_mode=OFF"); db.execute("PRAGMA synchronous=OFF")
db.execute("CREATE TABLE metadata (name text, value text, UNIQUE (name))")
db.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
meta.update({"bounds": a.bbox, "minzoom": str(a.minzoom), "maxzoom": str(a.maxzoom),
             "center": f"{(w + e) / 2},{(s + n) / 2},{a.minzoom}",
             "description": "samples/liechtenstein.mbtiles tiles replicated by bench/make-big-tileset.py"})
db.executemany("INSERT INTO metadata VALUES (?, ?)", sorted(meta.items()))
count = size = 0
for z in range(a.minzoom, a.maxzoom + 1):
    pool = by_zoom.get(z) or by_zoom[min(by_zoom, key=lambda k: abs(k - z))]
    rows = []
    for x in range(col(w, z), col(e, z) + 1):
        for y in range(row(n, z), row(s, z) + 1):
            data = pool[zlib.crc32(f"{z}/{x}/{y}".encode()) % len(pool)]
            if not a.shared and data[:2] == b"\x1f\x8b":
                # A unique gzip MTIME header field: distinct bytes, same decompressed tile.
                data = data[:4] + struct.pack("<I", count + len(rows) + 1) + data[8:]
            rows.append((z, x, (1 << z) - 1 - y, data))
            size += len(data)
    db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", rows)
    count += len(rows)
db.execute("CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row)")
db.commit(); db.close()
os.replace(tmp, a.out)
print(f"{a.out}: {count} tiles, {size / 1e6:.1f} MB of tile data, zooms {a.minzoom}-{a.maxzoom}, bbox {a.bbox}", file=sys.stderr)
