#!/usr/bin/env python3
"""Make samples/detour-trace.csv: a drive from Vaduz towards Balzers that leaves the planned
route once (a detour up the road to Triesenberg) and then follows the new route.

    python3 samples/make-detour-trace.py out/liechtenstein.chg > samples/detour-trace.csv

Uses route-query itself for the road geometry (GeoJSON), then samples a fix every ~100 m at
50 km/h with 5 m accuracy and the course of travel. Deterministic.
"""
import json
import math
import subprocess
import sys

graph = sys.argv[1]
tool = sys.argv[2] if len(sys.argv) > 2 else ".build/release/route-query"
VADUZ, BALZERS, TRIESENBERG = "9.5215,47.1410", "9.4990,47.0660", "9.5420,47.1180"


def route(a, b):
    out = subprocess.run([tool, "route", "--graph", graph, "--from", a, "--to", b, "--geometries", "geojson",
                          "--overview", "full"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["routes"][0]["geometry"]["coordinates"]


def dist(p, q):
    r = 6371008.8
    la1, la2 = math.radians(p[1]), math.radians(q[1])
    dla, dlo = la2 - la1, math.radians(q[0] - p[0])
    h = math.sin(dla / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(dlo / 2) ** 2
    return 2 * r * math.asin(math.sqrt(h))


def bearing(p, q):
    la1, la2 = math.radians(p[1]), math.radians(q[1])
    dlo = math.radians(q[0] - p[0])
    y = math.sin(dlo) * math.cos(la2)
    x = math.cos(la1) * math.sin(la2) - math.sin(la1) * math.cos(la2) * math.cos(dlo)
    return (math.degrees(math.atan2(y, x)) + 360) % 360


def resample(line, step=100.0, limit=None):
    """Points every `step` metres along `line`, up to `limit` metres."""
    out, carried, total = [line[0]], 0.0, 0.0
    for p, q in zip(line, line[1:]):
        d = dist(p, q)
        while carried + d >= step and d > 0:
            t = (step - carried) / d
            p = [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]
            out.append(p)
            total += step
            if limit is not None and total >= limit:
                return out
            d = dist(p, q)
            carried = 0.0
        carried += d
    return out


planned = route(VADUZ, BALZERS)
# Leave the planned route about 2.2 km in, where the road to Triesenberg branches off.
along = resample(planned, limit=2200)
leave = along[-1]
detour = resample(route("%f,%f" % (leave[0], leave[1]), TRIESENBERG), limit=700)[1:]
back = resample(route("%f,%f" % (detour[-1][0], detour[-1][1]), BALZERS))[1:]
fixes = along + detour + back
print("time,lon,lat,accuracy,course")
t0 = 1709596800  # 2024-03-05T00:00:00Z
for i, p in enumerate(fixes):
    q = fixes[i + 1] if i + 1 < len(fixes) else p
    course = bearing(p, q) if q != p else bearing(fixes[i - 1], p)
    print("%d,%.6f,%.6f,5,%.0f" % (t0 + 7 * i, p[0], p[1], course))
