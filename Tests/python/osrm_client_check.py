"""An independent OSRM client (requests + polyline) reading `route-query serve`.

Usage: osrm_client_check.py BASE_URL [--instructions] [--save PREFIX]
Decodes a route's geometry (polyline5 and polyline6), checks it runs from the first waypoint to
the last, reads a table and a nearest answer, and with --instructions checks that every step of
a route asked with voice_instructions/banner_instructions carries them. --save writes the answers
read to PREFIX-route.json, PREFIX-table.json, PREFIX-nearest.json. Prints "ok" and exits 0,
or names what is wrong and exits 1.
"""
import math
import sys

import polyline
import requests

A = (9.5215, 47.1410)
B = (9.4990, 47.0660)
C = (9.5270, 47.2400)


def metres(p, q):
    (lat1, lon1), (lat2, lon2) = p, q
    x = math.radians(lon2 - lon1) * math.cos(math.radians((lat1 + lat2) / 2))
    y = math.radians(lat2 - lat1)
    return 6371000 * math.hypot(x, y)


SAVED = {}


def get(base, path, save=None, **params):
    r = requests.get(base + path, params=params, timeout=30)
    body = r.json()
    if r.status_code != 200 or body.get("code") != "Ok":
        raise SystemExit(f"{path}: HTTP {r.status_code} {body}")
    if save:
        SAVED[save] = r.text
    return body


def coords(points):
    return ";".join(f"{lon},{lat}" for lon, lat in points)


def check_route(base, precision):
    geometries = "polyline" if precision == 5 else "polyline6"
    body = get(base, f"/route/v1/driving/{coords([A, B])}", save=None if "--instructions" in sys.argv else "route", overview="full", geometries=geometries, steps="true")
    route = body["routes"][0]
    line = polyline.decode(route["geometry"], precision)
    assert len(line) > 10, f"geometry has {len(line)} points"
    start = tuple(reversed(body["waypoints"][0]["location"]))
    end = tuple(reversed(body["waypoints"][-1]["location"]))
    assert metres(line[0], start) < 5 and metres(line[-1], end) < 5, "geometry does not join the waypoints"
    length = sum(metres(p, q) for p, q in zip(line, line[1:]))
    assert abs(length - route["distance"]) < 0.05 * route["distance"] + 20, f"line {length} m, route {route['distance']} m"
    steps = route["legs"][0]["steps"]
    assert steps[0]["maneuver"]["type"] == "depart" and steps[-1]["maneuver"]["type"] == "arrive"
    for s in steps:
        polyline.decode(s["geometry"], precision)
    return route


def check_table(base):
    body = get(base, f"/table/v1/driving/{coords([A, B, C])}", save="table", annotations="duration,distance", sources="0;1")
    d = body["durations"]
    assert len(d) == 2 and all(len(row) == 3 for row in d), d
    assert d[0][0] == 0 and d[0][1] > 60 and d[1][0] > 60, d
    assert len(body["distances"]) == 2 and len(body["sources"]) == 2 and len(body["destinations"]) == 3


def check_nearest(base):
    body = get(base, f"/nearest/v1/driving/{coords([A])}", save="nearest", number=3)
    w = body["waypoints"]
    assert len(w) == 3 and all(len(x["location"]) == 2 for x in w), w
    assert [x["distance"] for x in w] == sorted(x["distance"] for x in w), "not nearest first"
    assert w[0]["distance"] < 50, w[0]


def check_instructions(base):
    body = get(base, f"/route/v1/driving/{coords([A, B])}", save="route", steps="true",
               voice_instructions="true", banner_instructions="true")
    steps = body["routes"][0]["legs"][0]["steps"]
    for s in steps:
        assert "voiceInstructions" in s and "bannerInstructions" in s, f"step without instructions: {s['maneuver']}"
    assert any(v["announcement"] for s in steps for v in s["voiceInstructions"]), "no announcement"


def main():
    base = sys.argv[1].rstrip("/")
    r5 = check_route(base, 5)
    r6 = check_route(base, 6)
    assert abs(r5["distance"] - r6["distance"]) < 1e-6
    check_table(base)
    check_nearest(base)
    if "--instructions" in sys.argv:
        check_instructions(base)
    if "--save" in sys.argv:
        prefix = sys.argv[sys.argv.index("--save") + 1]
        for name, text in SAVED.items():
            with open(f"{prefix}-{name}.json", "w") as f:
                f.write(text + "\n")
    print("ok")


if __name__ == "__main__":
    main()
