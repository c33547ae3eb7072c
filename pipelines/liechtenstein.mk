# The default pipeline: the Liechtenstein sample from PBF to routing tiles to a CH graph.
# Every step is a file target, so `make` rebuilds only what changed.
#   make -f pipelines/liechtenstein.mk BIN=.build/release OUT=out
SHELL := /bin/bash
BIN ?= .build/release
OUT ?= out
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

.PHONY: all check
all: $(TILES) $(STITCHED) $(GRAPH) $(STITCHED_GRAPH)

$(PACK): $(PBF) profiles/car.json $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build routing --input $(PBF) --output $@ > $(OUT)/$(NAME).routing.json

$(TILES): $(PACK) $(BIN)/tilepack-unpack
	$(BIN)/tilepack-unpack $(PACK) --output $(OUT)/routing/$(NAME) > $(OUT)/$(NAME).unpack.json

$(WEST_PACK): $(PBF) profiles/car.json $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build routing --input $(PBF) --bbox $(WEST) --output $@ > $(OUT)/$(NAME)-west.routing.json

$(EAST_PACK): $(PBF) profiles/car.json $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build routing --input $(PBF) --bbox $(EAST) --output $@ > $(OUT)/$(NAME)-east.routing.json

$(STITCHED): $(WEST_PACK) $(EAST_PACK) $(BIN)/tilepack-unpack
	rm -rf $(OUT)/routing/$(NAME)-stitched
	$(BIN)/tilepack-unpack $(WEST_PACK) --output $(OUT)/routing/$(NAME)-stitched > /dev/null
	$(BIN)/tilepack-unpack $(EAST_PACK) --output $(OUT)/routing/$(NAME)-stitched > /dev/null

$(GRAPH): $(TILES) $(BIN)/route-graph
	$(BIN)/route-graph $(OUT)/routing/$(NAME) --output $@ > $(OUT)/$(NAME).graph.json

$(STITCHED_GRAPH): $(STITCHED) $(BIN)/route-graph
	$(BIN)/route-graph $(OUT)/routing/$(NAME)-stitched --output $@ > $(OUT)/$(NAME)-stitched.graph.json

# Checks for the smoke run: the stitched tiles (and their graph) equal the whole region's, and
# a second run of the pipeline rebuilds nothing and gives byte-identical packs.
check: all
	diff <(cd $(OUT)/routing/$(NAME) && sha256sum *.tile) <(cd $(OUT)/routing/$(NAME)-stitched && sha256sum *.tile)
	sha256sum $(PACK) $(WEST_PACK) $(EAST_PACK) > $(OUT)/packs.sha256
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) BIN=$(BIN) OUT=$(OUT) -q all
	$(BIN)/tilepack-build routing --input $(PBF) --output $(OUT)/again.routing.pack > /dev/null
	cmp $(PACK) $(OUT)/again.routing.pack
	cmp $(GRAPH) $(STITCHED_GRAPH)
	@echo "pipeline smoke run: OK"
