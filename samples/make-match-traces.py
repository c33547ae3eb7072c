#!/usr/bin/env python3
"""Make the map-matching sample traces: a drive from Vaduz to Balzers recorded the way devices
write it, with seeded noise, as GPX 1.1 (with <hdop>) and as an NMEA 0183 log (RMC + GGA).

    python3 samples/make-match-traces.py ROUTE.json OUT_DIR

ROUTE.json: a route response with a full GeoJSON geometry (`route-query route --geometries
geojson --overview full`). The drive follows it at the route's average speed, a fix every
second for GPX (100 fixes) and every 2 s for NMEA; positions get Gaussian noise of sigma 8 m;
one GPX fix has a reduced accuracy (hdop 40, 200 m) and is that far off; one NMEA second has no
fix (status V). Writes OUT_DIR/drive.gpx and OUT_DIR/drive.nmea; deterministic (seed 53).
"""
import json
import math
import os
import random
import sys
import time

R = 6371008.8


def dist(p, q):
    la1, la2 = math.radians(p[1]), math.radians(q[1])
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(math.radians(q[0] - p[0]) / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def drive(points, speed, interval, count):
    along = [0.0]
    for a, b in zip(points, points[1:]):
        along.append(along[-1] + dist(a, b))
    out, k = [], 0
    for i in range(count):
        s = min(along[-1], i * interval * speed)
        while k + 2 < len(along) and along[k + 1] < s:
            k += 1
        f = (s - along[k]) / (along[k + 1] - along[k]) if along[k + 1] > along[k] else 0
        a, b = points[k], points[k + 1]
        out.append((a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]),
                    math.degrees(math.atan2(math.radians(b[0] - a[0]) * math.cos(math.radians(a[1])), math.radians(b[1] - a[1]))) % 360))
    return out


def noisy(lon, lat, rng, sigma):
    k = math.pi / 180 * R
    return lon + rng.gauss(0, sigma) / (k * math.cos(math.radians(lat))), lat + rng.gauss(0, sigma) / k


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def nmea(body):
    s = 0
    for c in body.encode():
        s ^= c
    return f"${body}*{s:02X}"


def dm(value, width, hemispheres):
    h = hemispheres[0] if value >= 0 else hemispheres[1]
    v = abs(value)
    d = int(v)
    return f"{d:0{width}d}{(v - d) * 60:07.4f}", h


def main():
    route = json.load(open(sys.argv[1]))["routes"][0]
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    points = route["geometry"]["coordinates"]
    speed = route["distance"] / route["duration"]
    rng = random.Random(53)
    t0 = 1_717_243_200  # 2024-06-01T12:00:00Z
    gpx = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<gpx version="1.1" creator="offgrid samples/make-match-traces.py" xmlns="http://www.topografix.com/GPX/1/1">',
           '<trk><name>Vaduz to Balzers</name><trkseg>']
    for i, (lon, lat, _) in enumerate(drive(points, speed, 1, 100)):
        hdop = 1.6
        if i == 60:
            lat += 200 / (math.pi / 180 * R)   # reduced accuracy: 200 m off, and says so
            hdop = 40
        x, y = noisy(lon, lat, rng, 8)
        gpx.append(f'<trkpt lat="{y:.7f}" lon="{x:.7f}"><time>{iso(t0 + i)}</time><hdop>{hdop}</hdop></trkpt>')
    gpx += ['</trkseg></trk>', '</gpx>', '']
    with open(os.path.join(out, "drive.gpx"), "w") as f:
        f.write("\n".join(gpx))
    lines = []
    for i, (lon, lat, course) in enumerate(drive(points, speed, 2, 150)):
        t = time.gmtime(t0 + 2 * i)
        hhmmss, ddmmyy = time.strftime("%H%M%S", t) + ".00", time.strftime("%d%m%y", t)
        x, y = noisy(lon, lat, rng, 8)
        la, ns = dm(y, 2, "NS")
        lo, ew = dm(x, 3, "EW")
        if i == 40:
            lines.append(nmea(f"GPRMC,{hhmmss},V,,,,,,,{ddmmyy},,,N"))
            continue
        lines.append(nmea(f"GPRMC,{hhmmss},A,{la},{ns},{lo},{ew},{speed * 1.943844:.1f},{course:.1f},{ddmmyy},,,A"))
        lines.append(nmea(f"GPGGA,{hhmmss},{la},{ns},{lo},{ew},1,09,1.6,455.0,M,47.0,M,,"))
    with open(os.path.join(out, "drive.nmea"), "w") as f:
        f.write("\r\n".join(lines) + "\r\n")


if __name__ == "__main__":
    main()
