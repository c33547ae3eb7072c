#!/usr/bin/env python3
"""Make a large OSM extract by tiling the Liechtenstein sample, optionally joined by roads.

Each copy of the sample is shifted by whole multiples of its extent (0.30 deg x 0.72 deg)
on a grid of `--cols` columns, with node/way/relation ids offset by copy number times a
stride larger than any id in the sample, so ids stay unique and sorted (Type_then_ID) and
the result is a valid, realistic PBF of any size:

    python3 bench/make-tiled-extract.py --copies 36 --cols 6 --joins 0 bench/data/tiled-36.osm.pbf

36 copies of the 2.9 MB sample give a ~105 MB file with 11.5 M nodes (the `bench/pbf-read`
input; `--joins 0` gives exactly the copies, as before joins existed).

Joins (`--joins N`, default 10): without them every copy is its own island. With them, every
pair of horizontally or vertically neighbouring copies gets N new two-way roads
(`highway=secondary`, `name=Join A-B k`) from a node of copy A near the shared border to a
node of copy B near it. The endpoints are nodes of primary/secondary/tertiary/unclassified/
residential ways (not oneway, not roundabouts) in the largest connected component of the
sample's drivable network (car profile rules: profiles/car.json). The border-parallel extent
of those nodes is split into N equal bands, and in each band the node closest to the border
is taken (eastmost in A / westmost in B for an east-west pair, northmost in A / southmost
in B for a south-north pair). A join is a straight line with an intermediate node at least
every `--join-step` degrees (default 0.05, about 4-5 km). New node and way ids start above
copies * 2^34 (no copy's ids reach that), new nodes are written after all copies' nodes and
new ways after all copies' ways, so the file stays sorted. The output is deterministic.

Benchmark extracts (bench/route-graph). Per copy the sample has 25,260 "OSM routing nodes"
(nodes used by drivable ways: the `osmNodes` field of `tilepack-build routing`'s JSON), and the
grid is kept near-square in degrees:

    # ~1 M routing nodes: 40 copies, 8 x 5 copies = 2.4 deg x 3.6 deg, ~115 MB
    python3 bench/make-tiled-extract.py --copies 40 --cols 8 bench/data/tiled-40j.osm.pbf
    # ~5 M routing nodes: 200 copies, 20 x 10 copies = 6.0 deg x 7.2 deg, ~580 MB
    python3 bench/make-tiled-extract.py --copies 200 --cols 20 bench/data/tiled-200j.osm.pbf

`--check` reads the result back and reports, from a union-find over its drivable ways, the
largest connected component's share of routing nodes and how many copies it reaches.

Needs pyosmium (`pip install osmium`). Data (c) OpenStreetMap contributors, ODbL 1.0.
"""
import argparse
import os
import sys
import time

import osmium
from osmium.osm import mutable

ID_STRIDE = 1 << 34          # > the sample's largest node id (1.17e10)
DX, DY = 0.30, 0.72          # the sample's data extent, rounded up (degrees)

# The car profile (profiles/car.json, Sources/RoutingProfile/WayRules.swift): what is drivable.
DRIVABLE = {"motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link",
            "secondary", "secondary_link", "tertiary", "tertiary_link", "unclassified",
            "residential", "living_street", "service"}
DENIED_ACCESS = {"no", "private", "agricultural", "forestry", "emergency", "psv"}
# Ways whose nodes may carry a join.
JOIN_CLASSES = {"primary", "secondary", "tertiary", "unclassified", "residential"}
ONEWAY = {"yes", "1", "true", "-1", "reverse"}


def is_drivable(tags):
    """tags: a dict-like. Mirrors the car profile's rule (class, area, most specific access)."""
    if tags.get("highway") not in DRIVABLE or tags.get("area") == "yes":
        return False
    access = tags.get("motorcar") or tags.get("motor_vehicle") or tags.get("vehicle") or tags.get("access")
    return access not in DENIED_ACCESS


def is_oneway(tags):
    o = (tags.get("oneway:motorcar") or tags.get("oneway:motor_vehicle")
         or tags.get("oneway:vehicle") or tags.get("oneway"))
    if o is not None:
        return o in ONEWAY
    return tags.get("junction") in ("roundabout", "circular") or tags.get("highway") in ("motorway", "motorway_link")


class UnionFind:
    """Union-find over arbitrary hashable keys (path halving, union by size)."""

    def __init__(self):
        self.parent = {}
        self.size = {}

    def find(self, x):
        parent = self.parent
        p = parent.setdefault(x, x)
        if p == x:
            self.size.setdefault(x, 1)
            return x
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union_path(self, refs):
        find, size, parent = self.find, self.size, self.parent
        a = find(refs[0])
        for r in refs[1:]:
            b = find(r)
            if a != b:
                if size[a] < size[b]:
                    a, b = b, a
                parent[b] = a
                size[a] += size[b]

    def components(self):
        """{root: size} over every key."""
        out = {}
        for x in self.parent:
            r = self.find(x)
            out[r] = out.get(r, 0) + 1
        return out


def meta(o):
    return (o.version, o.changeset, o.timestamp, o.uid, o.user)


def read_sample(path):
    """The sample in memory: nodes (id, lon, lat, meta, tags), ways (id, meta, tags, refs, tagdict),
    relations (id, meta, tags, members)."""
    nodes, ways, relations = [], [], []
    for n in osmium.FileProcessor(path, osmium.osm.NODE):
        loc = n.location
        nodes.append((n.id, loc.lon, loc.lat, meta(n), [(t.k, t.v) for t in n.tags]))
    for w in osmium.FileProcessor(path, osmium.osm.WAY):
        tags = [(t.k, t.v) for t in w.tags]
        ways.append((w.id, meta(w), tags, [r.ref for r in w.nodes], dict(tags)))
    for r in osmium.FileProcessor(path, osmium.osm.RELATION):
        relations.append((r.id, meta(r), [(t.k, t.v) for t in r.tags],
                          [(m.type, m.ref, m.role) for m in r.members]))
    return nodes, ways, relations


def border_nodes(nodes, ways, bands):
    """For each side (east, west, north, south): per band, the sample node (id, lon, lat) of the
    largest drivable component closest to that side, or None. Also returns that component's
    size and the sample's count of routing nodes."""
    uf = UnionFind()
    for _, _, _, refs, tags in ways:
        if len(refs) > 1 and is_drivable(tags):
            uf.union_path(refs)
    comps = uf.components()
    big = max(comps, key=lambda r: (comps[r], r))
    preferred, any_big = set(), set()
    for _, _, _, refs, tags in ways:
        if len(refs) > 1 and is_drivable(tags) and uf.find(refs[0]) == big:
            any_big.update(refs)
            if tags.get("highway") in JOIN_CLASSES and not is_oneway(tags):
                preferred.update(refs)
    loc = {i: (lon, lat) for i, lon, lat, _, _ in nodes if i in any_big}

    def pick(pool, coord_along, coord_across, sign):
        pts = sorted((i,) + loc[i] for i in pool)
        lo = min(p[coord_along] for p in pts)
        hi = max(p[coord_along] for p in pts)
        out = [None] * bands
        for p in pts:
            k = min(bands - 1, int((p[coord_along] - lo) / (hi - lo) * bands)) if hi > lo else 0
            best = out[k]
            if best is None or (sign * p[coord_across], p[0]) > (sign * best[coord_across], best[0]):
                out[k] = p
        return out

    sides = {}
    for side, along, across, sign in (("east", 2, 1, 1), ("west", 2, 1, -1),
                                      ("north", 1, 2, 1), ("south", 1, 2, -1)):
        got = pick(preferred, along, across, sign) if bands else []
        # A band without a preferred node falls back to any node of the component.
        fallback = pick(any_big, along, across, sign) if bands and None in got else None
        sides[side] = [g if g is not None else (fallback[k] if fallback else None) for k, g in enumerate(got)]
    return sides, comps[big], len(uf.parent)


def plan_joins(copies, cols, sides, bands, step, base):
    """The join ways: list of (way id, name, [(node id, lon, lat or None if existing)...])."""
    joins = []
    next_id = base + 1
    node_id = base + 1
    new_nodes = []
    def at(k, p):
        return (p[0] + k * ID_STRIDE, p[1] + DX * (k % cols), p[2] + DY * (k // cols))

    pairs = []
    for k in range(copies):
        if k % cols + 1 < cols and k + 1 < copies:
            pairs.append((k, k + 1, "east", "west"))
        if k + cols < copies:
            pairs.append((k, k + cols, "north", "south"))
    for a, b, sa, sb in pairs:
        for band in range(bands):
            pa, pb = sides[sa][band], sides[sb][band]
            if pa is None or pb is None:
                continue
            (ia, xa, ya), (ib, xb, yb) = at(a, pa), at(b, pb)
            segs = max(1, int(max(abs(xb - xa), abs(yb - ya)) / step + 0.999999))
            refs = [ia]
            for s in range(1, segs):
                f = s / segs
                new_nodes.append((node_id, xa + (xb - xa) * f, ya + (yb - ya) * f))
                refs.append(node_id)
                node_id += 1
            refs.append(ib)
            joins.append((next_id, f"Join {a}-{b} {band + 1}", refs))
            next_id += 1
    return new_nodes, joins, len(pairs)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("output")
    p.add_argument("--input", default=os.path.join(os.path.dirname(__file__), "..", "samples", "liechtenstein.osm.pbf"))
    p.add_argument("--copies", type=int, default=36)
    p.add_argument("--cols", type=int, default=6)
    p.add_argument("--joins", type=int, default=10, help="roads between each pair of neighbouring copies (0: none)")
    p.add_argument("--join-step", type=float, default=0.05, help="at most this many degrees between join nodes")
    p.add_argument("--check", action="store_true", help="read the result back and report its connectivity")
    a = p.parse_args()
    if a.copies < 1 or a.cols < 1 or a.joins < 0 or a.join_step <= 0:
        p.error("--copies and --cols must be >= 1, --joins >= 0, --join-step > 0")

    t0 = time.monotonic()
    nodes, ways, relations = read_sample(a.input)
    if max(max(n[0] for n in nodes), max(w[0] for w in ways), max((r[0] for r in relations), default=0)) >= ID_STRIDE:
        sys.exit(f"{a.input}: ids reach 2^34, the copy id stride")
    base = a.copies * ID_STRIDE
    new_nodes, joins, pairs = [], [], 0
    routing_per_copy = None
    if a.joins:
        sides, big, routing_per_copy = border_nodes(nodes, ways, a.joins)
        new_nodes, joins, pairs = plan_joins(a.copies, a.cols, sides, a.joins, a.join_step, base)
        print(f"sample: {routing_per_copy} routing nodes, largest drivable component {big} "
              f"({100 * big / routing_per_copy:.1f}%)", file=sys.stderr)
    t_read = time.monotonic() - t0

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
    Location = osmium.osm.Location
    step = max(1, a.copies // 10)

    def progress(what, k):
        if (k + 1) % step == 0 or k + 1 == a.copies:
            print(f"{what} of copy {k + 1}/{a.copies} ({time.monotonic() - t0:.0f} s)", file=sys.stderr)

    # One mutable object per type, refilled for every object: much faster than replace().
    m = mutable.Node()
    add = writer.add_node
    for k in range(a.copies):
        dx, dy, off = DX * (k % a.cols), DY * (k // a.cols), k * ID_STRIDE
        for i, lon, lat, (v, c, ts, uid, user), tags in nodes:
            m.id = i + off
            m.location = Location(lon + dx, lat + dy)
            m.version, m.changeset, m.timestamp, m.uid, m.user = v, c, ts, uid, user
            m.tags = tags
            add(m)
        progress("nodes", k)
    join_meta = dict(version=1, changeset=0, uid=0, user="", timestamp="2024-03-04T21:21:35Z")
    for i, lon, lat in new_nodes:
        add(mutable.Node(id=i, location=Location(lon, lat), tags=[], **join_meta))

    m = mutable.Way()
    add = writer.add_way
    for k in range(a.copies):
        off = k * ID_STRIDE
        for i, (v, c, ts, uid, user), tags, refs, _ in ways:
            m.id = i + off
            m.version, m.changeset, m.timestamp, m.uid, m.user = v, c, ts, uid, user
            m.tags = tags
            m.nodes = [r + off for r in refs]
            add(m)
        progress("ways", k)
    for i, name, refs in joins:
        add(mutable.Way(id=i, nodes=refs, tags=[("highway", "secondary"), ("name", name),
                                                 ("note", "synthetic join, bench/make-tiled-extract.py")],
                        **join_meta))

    m = mutable.Relation()
    add = writer.add_relation
    for k in range(a.copies):
        off = k * ID_STRIDE
        for i, (v, c, ts, uid, user), tags, members in relations:
            m.id = i + off
            m.version, m.changeset, m.timestamp, m.uid, m.user = v, c, ts, uid, user
            m.tags = tags
            m.members = [(t, ref + off, role) for t, ref, role in members]
            add(m)
    writer.close()
    os.replace(tmp, a.output)
    secs = time.monotonic() - t0
    n_nodes = a.copies * len(nodes) + len(new_nodes)
    n_ways = a.copies * len(ways) + len(joins)
    print(f"wrote {a.output}: {a.copies} copies ({a.cols} cols x {rows} rows), "
          f"{len(joins)} joins over {pairs} neighbour pairs ({len(new_nodes)} new nodes), "
          f"{n_nodes} nodes, {n_ways} ways, {a.copies * len(relations)} relations, "
          f"{os.path.getsize(a.output) / 1e6:.1f} MB in {secs:.1f} s (sample read + join plan {t_read:.1f} s)",
          file=sys.stderr)
    if routing_per_copy:
        print(f"expected OSM routing nodes: {a.copies * routing_per_copy + len(new_nodes)} "
              f"({a.copies} x {routing_per_copy} + {len(new_nodes)} join nodes)", file=sys.stderr)
    if a.check:
        check(a.output, a.copies)


def check(path, copies):
    """Connectivity of the written file: union-find over its drivable ways."""
    t0 = time.monotonic()
    uf = UnionFind()
    for w in osmium.FileProcessor(path, osmium.osm.WAY):
        if len(w.nodes) > 1 and is_drivable(w.tags):
            uf.union_path([r.ref for r in w.nodes])
    comps = uf.components()
    big = max(comps, key=lambda r: (comps[r], r))
    total = len(uf.parent)
    reached = {i // ID_STRIDE for i in uf.parent if i // ID_STRIDE < copies and uf.find(i) == big}
    print(f"check: {total} routing nodes in {len(comps)} components; the largest has {comps[big]} "
          f"({100 * comps[big] / total:.2f}%) and reaches {len(reached)}/{copies} copies "
          f"({time.monotonic() - t0:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
