"""Map matching, ours beside osrm-routed's /match, on the same seeded synthetic traces.

Truth: random routes between random points of the extract (osrm-routed's /route, full
geometry), each driven at its own average speed. Traces: a fix every 1 s or 10 s with Gaussian
position noise sigma = 5, 15, 30 m (radiuses = sigma for both matchers); a mixed condition adds
20 % dropouts and 2 % outliers 200-400 m off. Score: the share of the true routes' length lying
within 5 m of a matched geometry (truth sampled every 2 m). Throughput: ours from
`route-query match --batch` (matching alone, one core), OSRM's from sequential HTTP requests on
one connection (its match service and the HTTP round trip, one server thread). An hour of 1 Hz
driving: chained routes, one trace of 3600 fixes.

usage: match-bench.py --bin DIR --graph CHG --osrm-port PORT --boxes SPEC [--traces N] [--seed S]
"""
import argparse, http.client, json, math, os, random, subprocess, sys, tempfile, time
import numpy as np

R = 6371008.8


def local(lon, lat, lon0, lat0):
    k = math.pi / 180 * R
    return (np.asarray(lon) - lon0) * k * math.cos(lat0 * math.pi / 180), (np.asarray(lat) - lat0) * k


def length(points):
    p = np.asarray(points)
    if len(p) < 2:
        return 0.0
    x, y = local(p[:, 0], p[:, 1], p[0, 0], p[0, 1])
    return float(np.hypot(np.diff(x), np.diff(y)).sum())


def recovered(truth, lines, tol=5.0):
    """(recovered metres, total metres) of truth within tol of any line."""
    t = np.asarray(truth)
    lon0, lat0 = t[0, 0], t[0, 1]
    tx, ty = local(t[:, 0], t[:, 1], lon0, lat0)
    # samples every 2 m (segment midpoints of a subdivision)
    sx, sy, sw = [], [], []
    for i in range(1, len(t)):
        seg = math.hypot(tx[i] - tx[i - 1], ty[i] - ty[i - 1])
        n = max(1, math.ceil(seg / 2))
        f = (np.arange(n) + 0.5) / n
        sx.append(tx[i - 1] + f * (tx[i] - tx[i - 1])); sy.append(ty[i - 1] + f * (ty[i] - ty[i - 1])); sw.append(np.full(n, seg / n))
    sx, sy, sw = np.concatenate(sx), np.concatenate(sy), np.concatenate(sw)
    near = np.zeros(len(sx), dtype=bool)
    for line in lines:
        if len(line) < 2:
            continue
        l = np.asarray(line)
        lx, ly = local(l[:, 0], l[:, 1], lon0, lat0)
        ax, ay, bx, by = lx[:-1], ly[:-1], lx[1:], ly[1:]
        dx, dy = bx - ax, by - ay
        l2 = np.maximum(dx * dx + dy * dy, 1e-12)
        for start in range(0, len(sx), 2048):
            px, py = sx[start:start + 2048, None], sy[start:start + 2048, None]
            u = np.clip(((px - ax) * dx + (py - ay) * dy) / l2, 0, 1)
            d2 = (ax + u * dx - px) ** 2 + (ay + u * dy - py) ** 2
            near[start:start + 2048] |= d2.min(axis=1) <= tol * tol
    return float(sw[near].sum()), float(sw.sum())


def get(conn, path):
    """The JSON answer; a connection the server dropped is opened again and asked once more."""
    for attempt in range(2):
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            return json.loads(r.read())
        except (http.client.HTTPException, ConnectionError):
            conn.close()
            if attempt:
                return {"code": "ConnectionClosed"}


def random_point(rng, boxes):
    lon0, lat0, lon1, lat1, cols, rows, dlon, dlat = boxes
    c = rng.randrange(cols * rows)
    return (rng.uniform(lon0, lon1) + dlon * (c % cols), rng.uniform(lat0, lat1) + dlat * (c // cols))


def truth_routes(conn, rng, boxes, n, min_m=2000):
    out = []
    while len(out) < n:
        a, b = random_point(rng, boxes), random_point(rng, boxes)
        if b is None:
            continue
        # keep trips within one copy of the tiled extract: the points of one copy
        b = (a[0] + rng.uniform(-0.06, 0.06), a[1] + rng.uniform(-0.08, 0.08))
        body = get(conn, f"/route/v1/driving/{a[0]:.6f},{a[1]:.6f};{b[0]:.6f},{b[1]:.6f}?overview=full&geometries=geojson")
        if body.get("code") != "Ok":
            continue
        r = body["routes"][0]
        if r["distance"] < min_m or r["duration"] <= 0:
            continue
        out.append((r["geometry"]["coordinates"], r["distance"] / r["duration"]))
    return out


def drive(points, speed, interval, sigma, rng, dropout=0.0, outliers=0.0, t0=1_700_000_000):
    p = np.asarray(points)
    x, y = local(p[:, 0], p[:, 1], p[0, 0], p[0, 1])
    along = np.concatenate([[0], np.cumsum(np.hypot(np.diff(x), np.diff(y)))])
    fixes = []
    t = 0.0
    kx = math.pi / 180 * R
    while t * speed <= along[-1]:
        s = t * speed
        lon = float(np.interp(s, along, p[:, 0])); lat = float(np.interp(s, along, p[:, 1]))
        e, nn = rng.gauss(0, sigma), rng.gauss(0, sigma)
        if rng.random() < outliers:
            ang, d = rng.uniform(0, 2 * math.pi), rng.uniform(200, 400)
            e, nn = d * math.cos(ang), d * math.sin(ang)
        if not fixes or rng.random() >= dropout:
            fixes.append((lon + e / (kx * math.cos(lat * math.pi / 180)), lat + nn / kx, t0 + int(round(t))))
        t += interval
    return fixes


def ours(binary, graph, traces, sigma):
    """(list of matched geometries per trace, fixes/s, peak RSS MiB) from one batch run."""
    with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False) as f:
        for i, fx in enumerate(traces):
            f.write(json.dumps({"id": i, "coordinates": [[a, b] for a, b, _ in fx], "timestamps": [t for _, _, t in fx],
                                "radiuses": [sigma] * len(fx)}) + "\n")
        path = f.name
    timing = path + ".time"
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", timing, f"{binary}/route-query", "match", "--graph", graph,
                        "--batch", path, "--geometries", "geojson", "--overview", "full", "--compact"]
                       + os.environ.get("OFFGRID_MATCH_ARGS", "").split(),
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"route-query match --batch failed: {r.stderr}")
    rss = int(open(timing).read().split()[-1]) / 1024
    os.unlink(path); os.unlink(timing)
    rate = float(r.stderr.strip().split()[-2].replace(",", ""))
    out = []
    for line in r.stdout.splitlines():
        a = json.loads(line)["answer"]
        out.append([m["geometry"]["coordinates"] for m in a.get("matchings", [])] if a.get("code") == "Ok" else [])
    return out, rate, rss


def osrm(conn, traces, sigma):
    out, fixes, seconds = [], 0, 0.0
    for fx in traces:
        coords = ";".join(f"{a:.6f},{b:.6f}" for a, b, _ in fx)
        stamps = ";".join(str(t) for _, _, t in fx)
        radii = ";".join(str(sigma) for _ in fx)
        start = time.perf_counter()
        body = get(conn, f"/match/v1/driving/{coords}?timestamps={stamps}&radiuses={radii}&geometries=geojson&overview=full&gaps=split")
        seconds += time.perf_counter() - start
        fixes += len(fx)
        if body.get("code") not in ("Ok", "NoMatch"):
            print(f"    osrm-routed: {body.get('code')} for a trace of {len(fx)} fixes", file=sys.stderr)
        out.append([m["geometry"]["coordinates"] for m in body.get("matchings", [])] if body.get("code") == "Ok" else [])
    return out, fixes / seconds


def share(truths, matched):
    rec = tot = 0.0
    for (pts, _), lines in zip(truths, matched):
        a, b = recovered(pts, lines)
        rec += a; tot += b
    return rec / tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True); ap.add_argument("--graph", required=True)
    ap.add_argument("--osrm-port", type=int, required=True); ap.add_argument("--boxes", required=True)
    ap.add_argument("--traces", type=int, default=20); ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--label", default="")
    a = ap.parse_args()
    boxes = [float(v) for v in a.boxes.split(",")]
    boxes[4], boxes[5] = int(boxes[4]), int(boxes[5])
    rng = random.Random(a.seed)
    conn = http.client.HTTPConnection("127.0.0.1", a.osrm_port, timeout=120)
    truths = truth_routes(conn, rng, boxes, a.traces)
    km = sum(length(p) for p, _ in truths) / 1000
    print(f"{a.label}: {len(truths)} true routes, {km:.0f} km, seed {a.seed}")
    print(f"  {'condition':<34} {'ours':>8} {'OSRM':>8}   {'ours fixes/s':>13} {'OSRM fixes/s':>13} {'ours RSS':>9}")
    conditions = [(5, 1, 0, 0), (15, 1, 0, 0), (30, 1, 0, 0), (5, 10, 0, 0), (15, 10, 0, 0), (30, 10, 0, 0), (15, 1, 0.2, 0.02)]
    for sigma, interval, dropout, outliers in conditions:
        trng = random.Random(a.seed * 1000 + sigma * 10 + interval)
        traces = [drive(p, v, interval, sigma, trng, dropout, outliers) for p, v in truths]
        mine, rate, rss = ours(a.bin, a.graph, traces, sigma)
        theirs, orate = osrm(conn, traces, sigma)
        name = f"sigma {sigma} m, every {interval} s" + (f", {int(dropout*100)}% drop, {int(outliers*100)}% outliers" if dropout else "")
        print(f"  {name:<34} {share(truths, mine):8.2%} {share(truths, theirs):8.2%}   {rate:13,.0f} {orate:13,.0f} {rss:7.0f} MiB", flush=True)
    # An hour of 1 Hz driving: routes chained end to start until 3600 fixes.
    chain, fixes = [], []
    hrng = random.Random(a.seed + 7)
    while len(fixes) < 3600:
        pts, v = truth_routes(conn, hrng, boxes, 1)[0]
        fx = drive(pts, v, 1, 5, hrng, t0=1_700_000_000 + (fixes[-1][2] + 1 - 1_700_000_000 if fixes else 0))
        fixes += fx
    fixes = fixes[:3600]
    start = time.perf_counter()
    _, rate, rss = ours(a.bin, a.graph, [fixes], 5)
    wall = time.perf_counter() - start
    print(f"  one hour at 1 Hz (3600 fixes, sigma 5 m): ours {3600 / rate:.3f} s matching ({wall:.2f} s with start-up), peak RSS {rss:.0f} MiB")


if __name__ == "__main__":
    main()
