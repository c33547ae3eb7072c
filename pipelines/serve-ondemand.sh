#!/usr/bin/env bash
# Packs on demand and the viewer, run by pipelines/ondemand.mk:
#   serve-ondemand.sh BIN OUT PYTHON STYLEPACK GRAPH
# nginx serves OUT/repository on a free loopback port; a fresh store gets only the style pack;
# `tilestore serve --repository` fills it while MapLibre Native renders a view (OUT/ondemand-preview.png);
# `route-query serve` answers the viewer's routes; headless Chromium opens the viewer, clicks two
# points, and screenshots the route (OUT/viewer/viewer-route.png). Every server is stopped on exit
# (SIGTERM; tilestore serve must exit 0).
set -euo pipefail
BIN=$1 OUT=$(cd "$2" && pwd) PYTHON=$3 STYLEPACK=$4 GRAPH=$5
: "${OFFGRID_MAPLIBRE_DIR:?set OFFGRID_MAPLIBRE_DIR to the srcjs directory of the PyPI maplibre package (the Makefile does)}"
STORE=$OUT/ondemand-store RUN=$OUT/ondemand-run
rm -rf "$STORE" "$RUN" "$OUT/viewer"
mkdir -p "$RUN/tmp" "$OUT/viewer"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
listening() { for _ in $(seq 300); do grep -q listening "$1" 2>/dev/null && break; sleep 0.05; done
              "$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["listening"])' "$1"; }

NGINX=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
[ -n "$NGINX" ] || { echo "serve-ondemand: nginx is not installed (make test-deps installs it)" >&2; exit 1; }
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -e "s|@PORT@|$PORT|g" -e "s|@ROOT@|$OUT|g" -e "s|@PREFIX@|$RUN|g" Tests/nginx/repository.conf.template > "$RUN/nginx.conf"
"$NGINX" -p "$RUN" -c "$RUN/nginx.conf" -e "$RUN/error.log" & pids+=($!)
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.05; done

mkdir -p "$STORE"
"$BIN/tilestore" --store "$STORE" install-style "$STYLEPACK" > /dev/null
"$BIN/route-query" serve --graph "$GRAPH" --listen 127.0.0.1:0 > "$RUN/route.out" 2> "$RUN/route.log" & pids+=($!)
ROUTING=$(listening "$RUN/route.out")
"$BIN/tilestore" --store "$STORE" serve --listen 127.0.0.1:0 --repository "http://127.0.0.1:$PORT/repository" \
    --viewer-assets "$OFFGRID_MAPLIBRE_DIR" --routing "$ROUTING" > "$RUN/serve.out" 2> "$RUN/serve.log" & serve=$!
pids+=($serve)
BASE=http://$(listening "$RUN/serve.out")
before=$("$BIN/tilestore" --store "$STORE" ambient | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["packs"])')
test "$before" = 0

# MapLibre Native draws a view of packs the store did not hold.
EGL_PLATFORM=surfaceless "$PYTHON" Tests/interop/render_check.py --out-dir "$RUN/render" --server "$BASE" --only ondemand-preview \
    --center 9.535,47.125 --zoom 12.5 --size 800x600 > "$RUN/render.json"
mv "$RUN/render/ondemand-preview.png" "$OUT/ondemand-preview.png"
# Chromium: the viewer page, a route from two clicks.
EGL_PLATFORM=surfaceless "$PYTHON" Tests/interop/browser_check.py --server "$BASE" --out-dir "$OUT/viewer" \
    --view 9.515,47.105,11.5 --route "9.5215,47.1410;9.4990,47.0660" --native > "$OUT/viewer/browser-check.json"
"$BIN/tilestore" --store "$STORE" ambient > "$OUT/ondemand-ambient.json"
kill -TERM "$serve"; wait "$serve"
"$BIN/tilestore" --store "$STORE" verify > /dev/null
"$PYTHON" - "$OUT" "$RUN/serve.log" <<'PY'
import json, sys
out, log = sys.argv[1], sys.argv[2]
a = json.load(open(f"{out}/ondemand-ambient.json"))
b = json.loads(open(f"{out}/viewer/browser-check.json").read().splitlines()[-1])
fetched = sum(1 for line in open(log) if "fetched pack" in line)
assert a["packs"] > 0 and a["packs"] == fetched, (a["packs"], fetched)
assert b["ok"], b
print(f"serve --repository on an empty store: {a['packs']} packs fetched on demand ({a['bytes']} bytes, ambient), "
      f"MapLibre Native preview in ondemand-preview.png")
print(f"viewer in Chromium: idle after {b['idleSeconds']} s, {b['requests']['/tiles/']} tile requests, "
      f"agreement with MapLibre Native {b.get('nativeAgreement')}, route {b['route']['distance']:.0f} m with {b['route']['steps']} steps "
      f"drawn ({b['routePixels']} px) in viewer/viewer-route.png")
PY
