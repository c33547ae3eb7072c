#!/usr/bin/env bash
# Starts `tilestore serve` on a free loopback port, asks it what a MapLibre client asks (the
# index, a TileJSON, the style, a glyph range, a sprite, tiles), renders the style from it with
# MapLibre Native (pymgl) to PREVIEW, and stops it (SIGTERM, exit 0 expected; killed on failure).
#   pipelines/serve-preview.sh BIN STORE PYTHON PREVIEW
set -euo pipefail
BIN=$1 STORE=$2 PYTHON=$3 PREVIEW=$4
work=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
"$BIN/tilestore" --store "$STORE" serve --listen 127.0.0.1:0 --quiet > "$work/listening" &
pid=$!
for _ in $(seq 200); do grep -q listening "$work/listening" 2>/dev/null && break; sleep 0.05; done
base="http://$("$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["listening"])' < "$work/listening")"
"$PYTHON" - "$base" <<'PY'
import json, sys, urllib.parse, requests
base = sys.argv[1]
def get(path, status=200):
    r = requests.get(base + path, timeout=30)
    assert r.status_code == status, (path, r.status_code, r.text[:200])
    return r
index = get("/").json()
name = index["tilesets"][0]["name"]
tj = get("/tiles/%s.json" % urllib.parse.quote(name, safe="")).json()
assert tj["tilejson"] == "3.0.0" and tj["vector_layers"], tj
style = get("/styles/basic/style.json").json()
assert style["sources"]["openmaptiles"]["url"].startswith(base), style["sources"]
assert len(get("/fonts/DejaVu%20Sans%20Book/0-255.pbf").content) > 1000
assert get("/styles/basic/sprite@2x.png").content[:4] == b"\x89PNG"
tiles = [get(tj["tiles"][0].replace(base, "").format(z=z, x=x, y=y)) for z, x, y in [(10, 539, 359), (12, 2156, 1438), (14, 8625, 5754)]]
print(json.dumps({"server": base, "tileset": name, "tilejson": {k: tj[k] for k in ("minzoom", "maxzoom", "bounds")},
                  "tileBytes": [len(t.content) for t in tiles]}))
PY
EGL_PLATFORM=surfaceless "$PYTHON" Tests/interop/render_check.py --out-dir "$work/render" --server "$base" --only preview \
    --center 9.535,47.125 --zoom 12.5 --size 800x600
mv "$work/render/preview.png" "$PREVIEW.tmp" && mv "$PREVIEW.tmp" "$PREVIEW"
kill -TERM "$pid"
wait "$pid"
pid=
