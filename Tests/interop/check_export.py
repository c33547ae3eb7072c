#!/usr/bin/env python3
"""Real readers check `tilestore export`: the `pmtiles` package reads the PMTiles archive and
Python's sqlite3 the MBTiles file; every tile equals the source MBTiles' tile.

    python3 Tests/interop/check_export.py --source samples/liechtenstein.mbtiles --tiles N \
        [--pmtiles X.pmtiles] [--mbtiles Y.mbtiles]

--tiles is the number of tiles the region holds (tilestore show). Prints a JSON summary; exits 1
on any failure.
"""
import argparse
import json
import sqlite3
import sys

import pmtiles.reader
from pmtiles.tile import Compression, TileType, zxy_to_tileid

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


ap = argparse.ArgumentParser()
ap.add_argument("--source", required=True)
ap.add_argument("--tiles", type=int, required=True)
ap.add_argument("--pmtiles")
ap.add_argument("--mbtiles")
a = ap.parse_args()
src = sqlite3.connect(a.source)


def source_tile(z, x, y):
    row = src.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                      (z, x, (1 << z) - 1 - y)).fetchone()
    return bytes(row[0]) if row else None


summary = {}
sets = []
if a.pmtiles:
    with open(a.pmtiles, "rb") as f:
        get = pmtiles.reader.MmapSource(f)
        reader = pmtiles.reader.Reader(get)
        h = reader.header()
        meta = reader.metadata()
        check(h["clustered"] and h["tile_type"] == TileType.MVT and h["tile_compression"] == Compression.GZIP
              and h["internal_compression"] == Compression.GZIP, f"header {h}")
        check(len(meta.get("vector_layers", [])) >= 5 and meta.get("format") == "pbf" and meta.get("name"), f"metadata {meta}")
        seen = set()
        equal = 0
        last = -1
        for (z, x, y), data in pmtiles.reader.all_tiles(get):
            seen.add((z, x, y))
            equal += data == source_tile(z, x, y)
            check(reader.get(z, x, y) == data, f"get({z},{x},{y}) equals the traversal")
            tid = zxy_to_tileid(z, x, y)
            check(tid > last, "tile ids ascend")
            last = tid
        check(len(seen) == a.tiles == h["addressed_tiles_count"], f"pmtiles holds {len(seen)} tiles, header {h['addressed_tiles_count']}, region {a.tiles}")
        check(equal == len(seen), f"pmtiles tiles equal to the source: {equal} of {len(seen)}")
        check(h["min_zoom"] == min(t[0] for t in seen) and h["max_zoom"] == max(t[0] for t in seen), "header zooms")
        summary["pmtiles"] = {"tiles": len(seen), "entries": h["tile_entries_count"], "contents": h["tile_contents_count"]}
        sets.append(seen)
if a.mbtiles:
    db = sqlite3.connect(a.mbtiles)
    check(db.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "integrity_check")
    meta = dict(db.execute("SELECT name, value FROM metadata"))
    for key in ("name", "format", "bounds", "center", "minzoom", "maxzoom", "json"):
        check(key in meta, f"mbtiles metadata has {key}")
    check(meta.get("format") == "pbf" and len(json.loads(meta["json"])["vector_layers"]) >= 5, "format and vector_layers")
    check(len([float(v) for v in meta["bounds"].split(",")]) == 4, "bounds")
    seen = set()
    equal = 0
    for z, x, row, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
        y = (1 << z) - 1 - row
        seen.add((z, x, y))
        equal += bytes(data) == source_tile(z, x, y)
    check(len(seen) == a.tiles, f"mbtiles holds {len(seen)} tiles, region {a.tiles}")
    check(equal == len(seen), f"mbtiles tiles equal to the source: {equal} of {len(seen)}")
    check(int(meta["minzoom"]) == min(t[0] for t in seen) and int(meta["maxzoom"]) == max(t[0] for t in seen), "metadata zooms")
    summary["mbtiles"] = {"tiles": len(seen)}
    sets.append(seen)
check(len(sets) < 2 or sets[0] == sets[1], "both exports hold the same tiles")
summary["failures"] = failures
print(json.dumps(summary))
sys.exit(1 if failures else 0)
