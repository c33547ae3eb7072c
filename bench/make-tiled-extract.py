#!/usr/bin/env python3
"""Make a large OSM extract by tiling the Liechtenstein sample.

Each copy of the sample is shifted by whole multiples of its extent on a grid of
`--cols` columns, with node/way/relation ids offset by copy number times a stride
larger than any id in the sample, so ids stay unique and sorted (Type_then_ID) and
the result is a valid, realistic PBF of any size:

    python3 bench/make-tiled-extract.py --copies 36 --cols 6 bench/data/tiled-36.osm.pbf

36 copies of the 2.9 MB sample give a ~105 MB file with 11.5 M nodes.
Needs pyosmium (`pip install osmium`). Data © OpenStreetMap contributors, ODbL 1.0.
"""
import argparse
import os
import sys

import osmium

ID_STRIDE = 1 << 34          # > the sample's largest node id (1.17e10)
DX, DY = 0.30, 0.72          # the sample's data extent, rounded up (degrees)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("output")
    p.add_argument("--input", default=os.path.join(os.path.dirname(__file__), "..", "samples", "liechtenstein.osm.pbf"))
    p.add_argument("--copies", type=int, default=36)
    p.add_argument("--cols", type=int, default=6)
    a = p.parse_args()

    tmp = a.output + ".partial.osm.pbf"
    if os.path.exists(tmp):
        os.remove(tmp)
    header = osmium.io.Header()
    rows = (a.copies + a.cols - 1) // a.cols
    header.add_box(osmium.osm.Box(osmium.osm.Location(9.39, 46.82),
                                  osmium.osm.Location(9.39 + DX * a.cols, 46.82 + DY * rows)))
    header.set("generator", "offgrid bench/make-tiled-extract.py")
    header.set("osmosis_replication_timestamp", "2024-03-04T21:21:35Z")
    writer = osmium.SimpleWriter(tmp, 0, header)

    def shift(k):
        return DX * (k % a.cols), DY * (k // a.cols), k * ID_STRIDE

    for k in range(a.copies):
        dx, dy, off = shift(k)
        for n in osmium.FileProcessor(a.input, osmium.osm.NODE):
            loc = n.location
            writer.add_node(n.replace(id=n.id + off, location=osmium.osm.Location(loc.lon + dx, loc.lat + dy)))
        print(f"nodes of copy {k + 1}/{a.copies}", file=sys.stderr)
    for k in range(a.copies):
        _, _, off = shift(k)
        for w in osmium.FileProcessor(a.input, osmium.osm.WAY):
            writer.add_way(w.replace(id=w.id + off, nodes=[r.ref + off for r in w.nodes]))
    for k in range(a.copies):
        _, _, off = shift(k)
        for r in osmium.FileProcessor(a.input, osmium.osm.RELATION):
            members = [(m.type, m.ref + off, m.role) for m in r.members]
            writer.add_relation(r.replace(id=r.id + off, members=members))
    writer.close()
    os.replace(tmp, a.output)
    print(f"wrote {a.output} ({os.path.getsize(a.output) / 1e6:.1f} MB)", file=sys.stderr)


if __name__ == "__main__":
    main()
