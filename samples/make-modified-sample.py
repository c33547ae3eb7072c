#!/usr/bin/env python3
"""The sample's next version, deterministically: one road and one map tile changed.

  make-modified-sample.py --pbf samples/liechtenstein.osm.pbf --pbf-out OUT.osm.pbf \
      --mbtiles samples/liechtenstein.mbtiles --mbtiles-out OUT.mbtiles

PBF: way 4903992 (Oberplanknerstrasse, Planken, a residential road) gets maxspeed=20 and a new
name, and the header a new replication state (2024-03-05T21:21:35Z, sequence 3989), so the
routing data version becomes 2024-03-05-3989. Done with osmium-tool through OPL, which keeps
every other object exactly (the sample was written by osmium, sorted by type then id).

MBTiles: a copy whose metadata version is 3.1 and whose tile 14/8623/5759 (XYZ) gains one
empty vector layer named "offgrid_update" (appended to the MVT message, re-gzipped with
mtime 0). Every other tile keeps its bytes.

Publishing the original and then this version must add only the routing tile(s) holding the
way and the one map pack holding the tile (tests and the pipeline check it).
"""
import argparse
import gzip
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

WAY = "w4903992 "
TILE = (14, 8623, 5759)
STAMP = "2024-03-05T21:21:35Z"


def change_pbf(src, dst):
    if shutil.which("osmium") is None:
        sys.exit("make-modified-sample.py: osmium-tool is missing (apt-get install osmium-tool, or make test-deps)")
    with tempfile.TemporaryDirectory() as tmp:
        opl = os.path.join(tmp, "in.opl")
        subprocess.run(["osmium", "cat", src, "-f", "opl", "-o", opl, "--overwrite"], check=True)
        out = os.path.join(tmp, "out.opl")
        changed = 0
        with open(opl, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as g:
            for line in f:
                if line.startswith(WAY):
                    fields = line.rstrip("\n").split(" ")
                    for i, field in enumerate(fields):
                        if field.startswith("v"):
                            fields[i] = "v%d" % (int(field[1:]) + 1)
                        elif field.startswith("t"):
                            fields[i] = "t" + STAMP
                        elif field.startswith("T"):
                            tags = [t for t in field[1:].split(",") if not t.startswith(("maxspeed=", "name="))]
                            fields[i] = "T" + ",".join(sorted(tags + ["maxspeed=20", "name=Oberplanknerstrasse%20%(updated)"]))
                    line = " ".join(fields) + "\n"
                    changed += 1
                g.write(line)
        if changed != 1:
            sys.exit("make-modified-sample.py: way %s not found in %s" % (WAY.strip(), src))
        tmp_out = dst + ".tmp.osm.pbf"
        subprocess.run(["osmium", "cat", out, "-o", tmp_out, "--overwrite", "-f", "pbf",
                        "--output-header=osmosis_replication_timestamp=" + STAMP,
                        "--output-header=osmosis_replication_sequence_number=3989",
                        "--output-header=timestamp=" + STAMP,
                        "--output-header=sorting=Type_then_ID"], check=True)
        os.replace(tmp_out, dst)


def change_mbtiles(src, dst):
    tmp = dst + ".tmp"
    shutil.copyfile(src, tmp)
    db = sqlite3.connect(tmp)
    z, x, y = TILE
    row = (1 << z) - 1 - y
    got = db.execute("select tile_data from tiles where zoom_level=? and tile_column=? and tile_row=?", (z, x, row)).fetchone()
    if got is None:
        sys.exit("make-modified-sample.py: tile %d/%d/%d not in %s" % (z, x, y, src))
    name = b"offgrid_update"
    layer = b"\x0a" + bytes([len(name)]) + name + b"\x28\x80\x20" + b"\x78\x02"  # name, extent 4096, version 2
    mvt = gzip.decompress(got[0]) + b"\x1a" + bytes([len(layer)]) + layer
    data = gzip.compress(mvt, compresslevel=9, mtime=0)
    db.execute("update tiles set tile_data=? where zoom_level=? and tile_column=? and tile_row=?", (data, z, x, row))
    db.execute("update metadata set value='3.1' where name='version'")
    db.commit()
    db.execute("vacuum")
    db.close()
    os.replace(tmp, dst)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--pbf")
    p.add_argument("--pbf-out")
    p.add_argument("--mbtiles")
    p.add_argument("--mbtiles-out")
    a = p.parse_args()
    if a.pbf and a.pbf_out:
        change_pbf(a.pbf, a.pbf_out)
    if a.mbtiles and a.mbtiles_out:
        change_mbtiles(a.mbtiles, a.mbtiles_out)


if __name__ == "__main__":
    main()
