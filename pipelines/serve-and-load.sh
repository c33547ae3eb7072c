#!/usr/bin/env bash
# The load half of the pack repository demo (issue 11), run by pipelines/load.mk:
#   serve-and-load.sh BIN OUT
# Serves $OUT (holding repository/ and repository-next/, written by publish.mk) from nginx on a
# free loopback port (file:// when nginx is absent), loads two overlapping regions with routing
# and the style into a fresh store, compiles the loaded routing tiles and answers a route from
# them, then moves one region to the next version with `update` and prints what it fetched
# (only the changed objects). nginx is stopped on every exit.
set -euo pipefail
BIN=$1
OUT=$(cd "$2" && pwd)
STORE=$OUT/load-store
RUN=$OUT/load-nginx
rm -rf "$STORE" "$RUN"
mkdir -p "$RUN/tmp"

NGINX=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
if [ -n "$NGINX" ]; then
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  sed -e "s|@PORT@|$PORT|g" -e "s|@ROOT@|$OUT|g" -e "s|@PREFIX@|$RUN|g" Tests/nginx/repository.conf.template > "$RUN/nginx.conf"
  "$NGINX" -p "$RUN" -c "$RUN/nginx.conf" -e "$RUN/error.log" &
  NGINX_PID=$!
  trap 'kill $NGINX_PID 2>/dev/null; wait $NGINX_PID 2>/dev/null || true' EXIT
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.05; done
  URL=http://127.0.0.1:$PORT
else
  echo "load: nginx not found; loading from file:// instead"
  URL=file://$OUT
fi

$BIN/tilestore versions --from $URL/repository > $OUT/load-versions.json
# Two overlapping regions (they share the packs and routing tiles of the middle).
$BIN/tilestore --store $STORE load vaduz --from $URL/repository --around 9.5215,47.1410 --radius 6000 \
    --tileset liechtenstein --zoom 0-14 --routing --style offgrid://styles/basic --quiet > $OUT/load-vaduz.json
$BIN/tilestore --store $STORE load south --from $URL/repository --bbox 9.47,47.04,9.60,47.16 \
    --tileset liechtenstein --zoom 0-14 --routing --metadata '{"name":"Unterland south"}' --quiet > $OUT/load-south.json
$BIN/tilestore --store $STORE verify > $OUT/load-verify.json
# The loaded routing tiles compile as they are; a route from Vaduz to Balzers.
$BIN/route-graph $STORE/routing-dirs/south --output $OUT/load-south.chg > $OUT/load-south.graph.json
$BIN/route-query route --graph $OUT/load-south.chg --from 9.5215,47.1410 --to 9.4990,47.0660 > $OUT/load-route.json
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
for r in ("vaduz", "south"):
    j = json.load(open(f"{out}/load-{r}.json"))
    print(f"load {r}: {j['objectsFetched']} of {j['objectsRequired']} objects fetched ({j['bytesFetched']} bytes), "
          f"{j['objectsAlreadyStored']} already stored; {j['install']['mapPacks']} map packs, {j['install']['routingTiles']} routing tiles")
route = json.load(open(f"{out}/load-route.json"))
assert route["code"] == "Ok", route
print(f"route from the loaded tiles: {route['routes'][0]['distance']:.0f} m, {route['routes'][0]['duration']:.0f} s")
assert json.load(open(f"{out}/load-verify.json"))["consistent"]
PY

# The next version: only the changed objects cross the wire.
$BIN/tilestore --store $STORE update vaduz --from $URL/repository-next --quiet > $OUT/load-update.json
$BIN/tilestore --store $STORE verify > /dev/null
python3 - "$OUT" <<'PY'
import json, sys
j = json.load(open(f"{sys.argv[1]}/load-update.json"))
v = j["versions"]
print(f"update vaduz → tileset {v['tilesetVersion']}, routing {v['routingVersion']}: {j['objectsFetched']} of "
      f"{j['objectsRequired']} objects fetched ({j['bytesFetched']} of {j['bytesRequired']} bytes)")
assert 0 < j["objectsFetched"] <= 2, j
PY
