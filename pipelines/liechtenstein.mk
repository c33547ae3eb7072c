# The default pipeline: the Liechtenstein sample from PBF to routing tiles to a CH graph.
# Every step is a file target, so `make` rebuilds only what changed.
#   make -f pipelines/liechtenstein.mk BIN=.build/release OUT=out
SHELL := /bin/bash
BIN ?= .build/release
OUT ?= out
PYTHON ?= python3
PBF := samples/liechtenstein.osm.pbf
NAME := liechtenstein
# Two neighbouring regions split at 9.5°E, a routing-grid line: packed apart, unpacked together.
WEST := 9,46.5,9.5,48
EAST := 9.5,46.5,10,48

PACK := $(OUT)/$(NAME).routing.pack
TILES := $(OUT)/routing/$(NAME)/manifest.json
WEST_PACK := $(OUT)/$(NAME)-west.routing.pack
EAST_PACK := $(OUT)/$(NAME)-east.routing.pack
STITCHED := $(OUT)/routing/$(NAME)-stitched/manifest.json
GRAPH := $(OUT)/$(NAME).chg
STITCHED_GRAPH := $(OUT)/$(NAME)-stitched.chg
# The same tiles compiled for cyclists and walkers (profiles/bicycle.json, profiles/foot.json).
BICYCLE_GRAPH := $(OUT)/$(NAME)-bicycle.chg
FOOT_GRAPH := $(OUT)/$(NAME)-foot.chg

# Sample queries answered offline from the graph.
VADUZ := 9.5215,47.1410
BALZERS := 9.4990,47.0660
ROUTE := $(OUT)/route-vaduz-balzers.json
VIA_ROUTE := $(OUT)/route-ruggell-malbun-via-vaduz.json
TABLE := $(OUT)/table.json
REROUTE := $(OUT)/reroute.json
TRACE := $(OUT)/trace-events.ndjson
ANSWERS := $(OUT)/answers.ndjson
BICYCLE_ROUTE := $(OUT)/route-vaduz-balzers-bicycle.json
FOOT_ROUTE := $(OUT)/route-vaduz-balzers-foot.json
QUERIES := $(ROUTE) $(VIA_ROUTE) $(TABLE) $(REROUTE) $(TRACE) $(ANSWERS) $(BICYCLE_ROUTE) $(FOOT_ROUTE)
STYLEPACK := $(OUT)/basic.stylepack
# Glyph file names hold spaces, which Make cannot list: the directories stand for them.
STYLE_FILES := samples/style/style.json $(wildcard samples/style/sprite*) samples/style/glyphs

# Map tile packs for the sample regions, from MBTiles and from PMTiles (byte-identical), and
# predictive-caching regions derived from the Vaduz → Balzers route.
MBTILES := samples/liechtenstein.mbtiles
PMTILES := samples/liechtenstein.pmtiles
MAP_REGIONS := liechtenstein-oberland vaduz-2km vaduz-balzers-corridor
MAPS_MB := $(MAP_REGIONS:%=$(OUT)/maps/mbtiles/%/region.json)
MAPS_PM := $(MAP_REGIONS:%=$(OUT)/maps/pmtiles/%/region.json)
PREDICT := $(OUT)/predict/region.json
PREDICT_ROUTING := $(OUT)/$(NAME)-predict.routing.pack
MAPS := $(MAPS_MB) $(MAPS_PM) $(PREDICT) $(PREDICT_ROUTING)

# The tile store: the sample's map regions, the predictive-caching region, the routing packs
# and the style pack installed into one store, listed, verified, and a tile read back.
STORE := $(OUT)/store
STORE_LIST := $(OUT)/store-list.json
STORE_TILE := $(OUT)/store-tile-14-8623-5759.mvt.gz

# Real clients read the store: `tilestore serve` on a free loopback port answers a TileJSON, the
# style, a glyph range and tiles, and MapLibre Native (pymgl) renders the preview from it; a region
# is exported to PMTiles and read back with the pmtiles package (every tile equals the source's).
PREVIEW := $(OUT)/preview.png
EXPORT_REGION := liechtenstein-oberland
EXPORT_PMTILES := $(OUT)/$(EXPORT_REGION).pmtiles
# route-query serve on a free loopback port, read by an independent client (requests + polyline):
# a route with voice and banner instructions, a table and a nearest, saved as $(OUT)/serve-*.json; the server is stopped by SIGTERM
# (killed by the trap if a step fails) and must exit 0.
SERVE_CHECK := $(OUT)/serve-check.txt

.DEFAULT_GOAL := all
include $(dir $(lastword $(MAKEFILE_LIST)))publish.mk

.PHONY: all check maps-check store-check publish-check
all: $(TILES) $(STITCHED) $(GRAPH) $(STITCHED_GRAPH) $(QUERIES) $(STYLEPACK) $(MAPS) $(STORE_LIST) $(STORE_TILE) $(PUBLISH) $(PREVIEW) $(EXPORT_PMTILES) $(SERVE_CHECK)

$(PACK): $(PBF) $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build routing --input $(PBF) --output $@ > $(OUT)/$(NAME).routing.json

$(TILES): $(PACK) $(BIN)/tilepack-unpack
	$(BIN)/tilepack-unpack $(PACK) --output $(OUT)/routing/$(NAME) > $(OUT)/$(NAME).unpack.json

$(WEST_PACK): $(PBF) $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build routing --input $(PBF) --bbox $(WEST) --output $@ > $(OUT)/$(NAME)-west.routing.json

$(EAST_PACK): $(PBF) $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build routing --input $(PBF) --bbox $(EAST) --output $@ > $(OUT)/$(NAME)-east.routing.json

$(STITCHED): $(WEST_PACK) $(EAST_PACK) $(BIN)/tilepack-unpack
	rm -rf $(OUT)/routing/$(NAME)-stitched
	$(BIN)/tilepack-unpack $(WEST_PACK) --output $(OUT)/routing/$(NAME)-stitched > /dev/null
	$(BIN)/tilepack-unpack $(EAST_PACK) --output $(OUT)/routing/$(NAME)-stitched > /dev/null

$(GRAPH): $(TILES) profiles/car.json $(BIN)/route-graph
	$(BIN)/route-graph $(OUT)/routing/$(NAME) --output $@ > $(OUT)/$(NAME).graph.json

$(STITCHED_GRAPH): $(STITCHED) profiles/car.json $(BIN)/route-graph
	$(BIN)/route-graph $(OUT)/routing/$(NAME)-stitched --output $@ > $(OUT)/$(NAME)-stitched.graph.json

$(BICYCLE_GRAPH): $(TILES) profiles/bicycle.json $(BIN)/route-graph
	$(BIN)/route-graph $(OUT)/routing/$(NAME) --profile profiles/bicycle.json --output $@ > $(OUT)/$(NAME)-bicycle.graph.json

$(FOOT_GRAPH): $(TILES) profiles/foot.json $(BIN)/route-graph
	$(BIN)/route-graph $(OUT)/routing/$(NAME) --profile profiles/foot.json --output $@ > $(OUT)/$(NAME)-foot.graph.json

$(BICYCLE_ROUTE): $(BICYCLE_GRAPH) $(BIN)/route-query
	$(BIN)/route-query route --graph $(BICYCLE_GRAPH) --from $(VADUZ) --to $(BALZERS) --steps --overview full > $@.tmp && mv $@.tmp $@

$(FOOT_ROUTE): $(FOOT_GRAPH) $(BIN)/route-query
	$(BIN)/route-query route --graph $(FOOT_GRAPH) --from $(VADUZ) --to $(BALZERS) --steps --overview full > $@.tmp && mv $@.tmp $@

$(ROUTE): $(GRAPH) $(BIN)/route-query
	$(BIN)/route-query route --graph $(GRAPH) --from $(VADUZ) --to $(BALZERS) --steps --overview full > $@.tmp && mv $@.tmp $@

$(VIA_ROUTE): $(GRAPH) $(BIN)/route-query
	$(BIN)/route-query route --graph $(GRAPH) --from 9.5270,47.2400 --via $(VADUZ) --to 9.6090,47.1010 --steps --geometries geojson > $@.tmp && mv $@.tmp $@

$(TABLE): $(GRAPH) $(BIN)/route-query
	$(BIN)/route-query table --graph $(GRAPH) --sources "$(VADUZ);$(BALZERS);9.5270,47.2400" --destinations "9.6090,47.1010;9.5100,47.1650;9.5440,47.2200" --annotations duration,distance > $@.tmp && mv $@.tmp $@

# The driver is on Äulestrasse heading south-west and must not turn back.
$(REROUTE): $(GRAPH) $(BIN)/route-query
	$(BIN)/route-query reroute --graph $(GRAPH) --at 9.5190,47.1385 --heading 225 --avoid-uturn --to $(BALZERS) --steps > $@.tmp && mv $@.tmp $@

# samples/detour-trace.csv leaves the route once (see samples/make-detour-trace.py).
$(TRACE): $(ROUTE) samples/detour-trace.csv $(BIN)/route-query
	$(BIN)/route-query trace --graph $(GRAPH) --route $(ROUTE) --trace samples/detour-trace.csv > $@.tmp && mv $@.tmp $@

$(ANSWERS): $(GRAPH) samples/queries.ndjson $(BIN)/route-query
	$(BIN)/route-query batch --graph $(GRAPH) --stats < samples/queries.ndjson > $@.tmp && mv $@.tmp $@

$(SERVE_CHECK): $(GRAPH) $(BIN)/route-query Tests/python/osrm_client_check.py
	set -euo pipefail; rm -f $(OUT)/serve.out; \
	$(BIN)/route-query serve --graph $(GRAPH) --listen 127.0.0.1:0 --threads 2 > $(OUT)/serve.out 2> $(OUT)/serve.log & pid=$$!; \
	trap 'kill $$pid 2>/dev/null || true' EXIT; \
	for i in $$(seq 300); do grep -q listening $(OUT)/serve.out && break; sleep 0.1; done; \
	url=$$(sed -n 's/.*"listening":"\([^"]*\)".*/\1/p' $(OUT)/serve.out); test -n "$$url"; \
	$(PYTHON) Tests/python/osrm_client_check.py $$url --instructions --save $(OUT)/serve > $@.tmp; \
	kill -TERM $$pid; wait $$pid; trap - EXIT; \
	echo "$$url answered route (with instructions), table, nearest; stopped with SIGTERM, exit 0" >> $@.tmp; mv $@.tmp $@

$(STYLEPACK): $(STYLE_FILES) $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build style --style samples/style/style.json --resources samples/style --pixel-ratio 1,2 \
	    --uri offgrid://styles/basic --output $@ > $(OUT)/basic.stylepack.json

$(OUT)/maps/mbtiles/%/region.json: samples/regions/%.geojson $(MBTILES) $(BIN)/tilepack-build
	@mkdir -p $(OUT)/maps/mbtiles
	$(BIN)/tilepack-build maps --source $(MBTILES) --region $< --output $(OUT)/maps/mbtiles/$* --quiet > $(OUT)/maps/$*.mbtiles.json

$(OUT)/maps/pmtiles/%/region.json: samples/regions/%.geojson $(PMTILES) $(BIN)/tilepack-build
	@mkdir -p $(OUT)/maps/pmtiles
	$(BIN)/tilepack-build maps --source $(PMTILES) --region $< --output $(OUT)/maps/pmtiles/$* --quiet > $(OUT)/maps/$*.pmtiles.json

$(PREDICT): $(ROUTE) $(PMTILES) $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build predict --route $(ROUTE) --source $(PMTILES) --output $(OUT)/predict --quiet > $(OUT)/predict.json

$(PREDICT_ROUTING): $(PREDICT) $(PBF) $(BIN)/tilepack-build
	$(BIN)/tilepack-build routing --input $(PBF) --region $(OUT)/predict/routing-region.geojson --output $@ > $(OUT)/$(NAME)-predict.routing.json

# The packs do not depend on the container: MBTiles and PMTiles give the same bytes; a rebuild
# gives the same bytes; the estimate equals the build.
maps-check: $(MAPS)
	diff -r $(OUT)/maps/mbtiles $(OUT)/maps/pmtiles
	rm -rf $(OUT)/maps/again
	$(BIN)/tilepack-build maps --source $(PMTILES) --region samples/regions/vaduz-balzers-corridor.geojson --output $(OUT)/maps/again --quiet > /dev/null
	diff -r $(OUT)/maps/mbtiles/vaduz-balzers-corridor $(OUT)/maps/again
	$(BIN)/tilepack-build maps --source $(MBTILES) --region samples/regions/liechtenstein-oberland.geojson --estimate --quiet > $(OUT)/maps/estimate.json
	python3 -c 'import json,sys; e=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert all(e[k]==b[k] for k in ("packs","tiles","tileBytes")), (e,b)' $(OUT)/maps/estimate.json $(OUT)/maps/liechtenstein-oberland.mbtiles.json

$(STORE_LIST): $(MAPS_MB) $(PREDICT) $(PACK) $(PREDICT_ROUTING) $(STYLEPACK) $(BIN)/tilestore
	rm -rf $(STORE)
	for r in $(MAP_REGIONS); do \
	  $(BIN)/tilestore --store $(STORE) install $(OUT)/maps/mbtiles/$$r --quiet > $(OUT)/store-install-$$r.json || exit 1; \
	done
	$(BIN)/tilestore --store $(STORE) install $(OUT)/predict --quiet > $(OUT)/store-install-predict.json
	$(BIN)/tilestore --store $(STORE) install-routing $(PREDICT_ROUTING) --region-id predict-route-vaduz-balzers --quiet > $(OUT)/store-install-predict-routing.json
	$(BIN)/tilestore --store $(STORE) install-routing $(PACK) --region-id $(NAME) --quiet > $(OUT)/store-install-routing.json
	$(BIN)/tilestore --store $(STORE) install-style $(STYLEPACK) > $(OUT)/store-install-style.json
	$(BIN)/tilestore --store $(STORE) style-packs > $(OUT)/store-styles.json
	$(BIN)/tilestore --store $(STORE) verify > $(OUT)/store-verify.json
	$(BIN)/tilestore --store $(STORE) list > $@.tmp && mv $@.tmp $@

$(STORE_TILE): $(STORE_LIST) $(BIN)/tilestore
	$(BIN)/tilestore --store $(STORE) get 14 8623 5759 --output $@ > $(OUT)/store-tile.json

$(PREVIEW): $(STORE_LIST) $(BIN)/tilestore pipelines/serve-preview.sh Tests/interop/render_check.py
	pipelines/serve-preview.sh $(BIN) $(STORE) $(PYTHON) $@ > $(OUT)/serve-check.json

$(EXPORT_PMTILES): $(STORE_LIST) $(BIN)/tilestore Tests/interop/check_export.py
	$(BIN)/tilestore --store $(STORE) export $(EXPORT_REGION) --format pmtiles --output $@.tmp > $(OUT)/$(EXPORT_REGION).export.json
	$(PYTHON) Tests/interop/check_export.py --source $(MBTILES) --pmtiles $@.tmp \
	    --tiles $$($(BIN)/tilestore --store $(STORE) show $(EXPORT_REGION) | $(PYTHON) -c 'import json,sys; print(json.load(sys.stdin)["tiles"])') > $(OUT)/export-check.json
	mv $@.tmp $@

# Five complete regions sharing packs (each stored once); the tile read back through the store
# equals the MBTiles tile read by sqlite3; the store verifies clean.
store-check: $(STORE_LIST) $(STORE_TILE)
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["regions"]; assert len(r)==5 and all(x["complete"] for x in r), r; s=d["store"]; assert s["mapPacks"]==s["mapPacksInRegions"] < sum(x["packs"]["map"] for x in r), s' $(STORE_LIST)
	python3 -c 'import sqlite3,sys; t=sqlite3.connect(sys.argv[1]).execute("select tile_data from tiles where zoom_level=14 and tile_column=8623 and tile_row=(1<<14)-1-5759").fetchone()[0]; assert open(sys.argv[2],"rb").read()==t' $(MBTILES) $(STORE_TILE)
	$(BIN)/tilestore --store $(STORE) verify > /dev/null

# Checks for the smoke run: the stitched tiles (and their graph) equal the whole region's, and
# a second run of the pipeline rebuilds nothing and gives byte-identical packs.
check: all maps-check store-check publish-check
	diff <(cd $(OUT)/routing/$(NAME) && sha256sum *.tile) <(cd $(OUT)/routing/$(NAME)-stitched && sha256sum *.tile)
	sha256sum $(PACK) $(WEST_PACK) $(EAST_PACK) > $(OUT)/packs.sha256
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) BIN=$(BIN) OUT=$(OUT) -q all
	$(BIN)/tilepack-build routing --input $(PBF) --output $(OUT)/again.routing.pack > /dev/null
	cmp $(PACK) $(OUT)/again.routing.pack
	cmp $(GRAPH) $(STITCHED_GRAPH)
	grep -q '"code" : "Ok"' $(ROUTE)
	# The same pack for every traveller: walking takes longer than cycling, cycling than driving.
	$(PYTHON) -c 'import json,sys; d=[json.load(open(f))["routes"][0]["duration"] for f in sys.argv[1:]]; print("car, bicycle, foot durations (s):", d); assert d[0] < d[1] < d[2], d' $(ROUTE) $(BICYCLE_ROUTE) $(FOOT_ROUTE)
	test "$$(grep -c '"event":"reroute"' $(TRACE))" = 1
	test "$$(wc -l < $(ANSWERS))" = "$$(wc -l < samples/queries.ndjson)"
	grep -q '"code":"Ok"' $(MATCH_GPX_JSON)
	test "$$(grep -c '"matched":true' $(MATCH_FREE))" -gt 100
	$(PYTHON) Tests/interop/check_routes.py $(ROUTE) $(VIA_ROUTE)
	@echo "pipeline smoke run: OK"

# Map matching of GPX and NMEA traces of the sample (pipelines/match.mk).
include $(dir $(firstword $(MAKEFILE_LIST)))match.mk
all: $(MATCH_ALL)

# Loading from the pack repository (pipelines/load.mk): serves publish.mk's repository.
include $(dir $(firstword $(MAKEFILE_LIST)))load.mk
all: $(LOAD_SUMMARY)

# Packs on demand and the viewer (pipelines/ondemand.mk): serves publish.mk's repository to an empty store.
include $(dir $(firstword $(MAKEFILE_LIST)))ondemand.mk
all: $(ONDEMAND_SUMMARY)
