#!/usr/bin/env python3
"""A real client reads route-query's output: decode each route's geometry with the `polyline`
package from PyPI (or read GeoJSON), and check the shape against the waypoints and the steps.

    python3 Tests/interop/check_routes.py out/route-*.json
"""
import json
import math
import sys

import polyline  # from the project venv: make pydeps (Tests/python/requirements.txt)


def meters(a, b):
    r = 6371008.8
    la1, la2 = math.radians(a[1]), math.radians(b[1])
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin(math.radians(b[0] - a[0]) / 2) ** 2
    return 2 * r * math.asin(math.sqrt(h))


def coords(geometry):
    """[lon, lat] pairs from a polyline6 string or a GeoJSON LineString."""
    if isinstance(geometry, str):
        return [[lon, lat] for lat, lon in polyline.decode(geometry, 6)]
    return geometry["coordinates"]


failures = 0
for path in sys.argv[1:]:
    response = json.load(open(path))
    assert response["code"] == "Ok", (path, response.get("message"))
    route = response["routes"][0]
    line = coords(route["geometry"])
    waypoints = [w["location"] for w in response["waypoints"]]
    problems = []
    if meters(line[0], waypoints[0]) > 1 or meters(line[-1], waypoints[-1]) > 1:
        problems.append("geometry does not start and end at the waypoints")
    length = sum(meters(a, b) for a, b in zip(line, line[1:]))
    if abs(length - route["distance"]) > max(5, 0.01 * route["distance"]):
        problems.append("geometry length %.1f m vs route distance %.1f m" % (length, route["distance"]))
    for leg, (a, b) in zip(route["legs"], zip(waypoints, waypoints[1:])):
        steps = leg["steps"]
        if steps:
            total = sum(s["distance"] for s in steps)
            if abs(total - leg["distance"]) > 1:
                problems.append("steps add up to %.1f m, leg is %.1f m" % (total, leg["distance"]))
            first, last = coords(steps[0]["geometry"]), coords(steps[-1]["geometry"])
            if meters(first[0], a) > 1 or meters(last[-1], b) > 1:
                problems.append("steps do not run from waypoint to waypoint")
            if steps[0]["maneuver"]["type"] != "depart" or steps[-1]["maneuver"]["type"] != "arrive":
                problems.append("steps must start with depart and end with arrive")
    status = "ok" if not problems else "FAILED: " + "; ".join(problems)
    print("%s: %d points, %.1f m, %.1f s, %d legs — %s" % (path, len(line), route["distance"], route["duration"], len(route["legs"]), status))
    failures += bool(problems)
sys.exit(1 if failures else 0)
