# Offgrid: `make pipeline` runs the default pipeline on the bundled sample into out/;
# `make test` runs the unit tests and a pipeline smoke run. Both install what they need.
SHELL := /bin/bash
SWIFT ?= swift
CONFIG ?= release
BIN := .build/$(CONFIG)
OUT ?= out
PIPELINE ?= pipelines/liechtenstein.mk
APT_PACKAGES := libsqlite3-dev zlib1g-dev libprotobuf-c-dev protobuf-c-compiler
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps pydeps viewer-deps osrm-deps test-deps osmium-deps build pipeline test smoke conformance scale scale-check scale-deps scale-slurm-check proto bench clean help

all: build

help:
	@echo "make pipeline   build (release) and run $(PIPELINE) on the sample into $(OUT)/"
	@echo "make test       build, swift test, make conformance, then a pipeline smoke run"
	@echo "make fuzz       every fuzz target FUZZ_SECONDS (60) each (FUZZ_TARGETS picks); findings in $(OUT)/fuzz/"
	@echo "make test-sanitized  the concurrency and reader tests under ThreadSanitizer, then AddressSanitizer"
	@echo "make conformance  OSRM's car and guidance cucumber features against the tools (docs/CONFORMANCE.md)"
	@echo "make scale      build (release) and run the Snakemake workflow on the sample in four regions into $(SCALE_OUT)/"
	@echo "make scale-check  make pipeline and make scale, then check they agree and a re-run does nothing"
	@echo "make scale-slurm-check  the Slurm profile's dry run; the workflow on a one-node Slurm cluster on loopback"
	@echo "                 (equal to make smoke's outputs); faults (empty region, broken region, kill -9, lost extract)"
	@echo "make proto      regenerate Sources/OSMPBFProto from proto/*.proto (protoc-c)"
	@echo "make bench      run every benchmark under bench/"

# Debian packages the build links against; installed only when missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG)

# Python clients and oracles (polyline, pmtiles, requests, ...) in a project-local venv; the tests
# and the pipeline run them with $(PYTHON) (exported as OFFGRID_PYTHON).
VENV := .venv
PYTHON := $(abspath $(VENV))/bin/python
export OFFGRID_PYTHON := $(PYTHON)
$(VENV)/.installed: Tests/python/requirements.txt
	python3 -m venv $(VENV) || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv >/dev/null && python3 -m venv $(VENV); }
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r Tests/python/requirements.txt
	touch $@

pydeps: $(VENV)/.installed

# The viewer page of tilestore serve: MapLibre GL JS from the venv's PyPI `maplibre` wheel (served
# locally, no CDN), and headless Chromium (Debian) for its browser test and the pipeline's screenshot.
export OFFGRID_MAPLIBRE_DIR = $(firstword $(wildcard $(abspath $(VENV))/lib/python3*/site-packages/maplibre/srcjs))
viewer-deps: pydeps
	@command -v chromium >/dev/null || command -v chromium-headless-shell >/dev/null || { echo "installing: chromium-headless-shell"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium-headless-shell >/dev/null; }

# osrm-routed and its tools (PyPI osrm-bindings, Python >= 3.12) in their own venv, for the
# side-by-side tests (OFFGRID_OSRM_PYTHON) and bench/serve-routing. The interpreter: python3.12+
# on PATH, else pyenv's versions directory; none is an error that says so.
VENV_OSRM := .venv-osrm
export OFFGRID_OSRM_PYTHON := $(abspath $(VENV_OSRM))/bin/python
$(VENV_OSRM)/.installed: Tests/python/requirements-osrm.txt
	@py=""; for c in python3.14 python3.13 python3.12 $$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -rV); do \
	  p=$$(command -v $$c 2>/dev/null) || continue; \
	  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { py=$$p; break; }; \
	done; \
	if [ -z "$$py" ]; then echo "osrm-deps: no Python >= 3.12 (python3.12 on PATH or under pyenv's versions/); osrm-bindings needs one" >&2; exit 1; fi; \
	echo "osrm-deps: $$py"; rm -rf $(VENV_OSRM); $$py -m venv $(VENV_OSRM)
	$(VENV_OSRM)/bin/pip install --quiet --disable-pip-version-check -r Tests/python/requirements-osrm.txt
	touch $@

osrm-deps: $(VENV_OSRM)/.installed

# Servers and tools the tests start themselves on loopback; installed only when missing.
# nginx: the pack repository server of the load tests; slurm-wlm and munge: the one-node Slurm cluster of make scale-slurm-check; osmium-tool: the
# workflow's extracts; libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri: software EGL for MapLibre Native (pymgl);
# sqlite3: the command line that writes the TileSources tests' MBTiles fixtures.
TEST_APT_PACKAGES := nginx slurm-wlm munge osmium-tool libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri sqlite3
test-deps: deps pydeps osrm-deps viewer-deps
	@missing=""; for p in $(TEST_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# osmium-tool makes the sample's next version for the pack repository steps (pipelines/publish.mk).
osmium-deps:
	@command -v osmium >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq osmium-tool >/dev/null; }

pipeline: build pydeps osmium-deps viewer-deps
	$(MAKE) -f $(PIPELINE) BIN=$(BIN) OUT=$(OUT) PYTHON=$(PYTHON)

# The smoke run builds the sample pipeline from scratch in its own directory, checks it,
# and runs it again to check that nothing is rebuilt and the outputs are byte-identical.
smoke: build pydeps osmium-deps viewer-deps
	rm -rf $(OUT)/smoke
	$(MAKE) -f $(PIPELINE) BIN=$(BIN) OUT=$(OUT)/smoke PYTHON=$(PYTHON) check

test: build test-deps
	$(SWIFT) test
	$(MAKE) conformance
	$(MAKE) smoke
	$(MAKE) scale-slurm-check

# OSRM's cucumber features (car/, guidance/) run against the release tools: route and turns cells
# scored as OSRM's support code does, a per-file table, $(OUT)/conformance/report.json, and a ratchet
# (Tests/conformance/ratchet.json; RATCHET=update records this run's rates). docs/CONFORMANCE.md.
OSRM_FEATURES ?= ../shared/osrm-features
RATCHET ?=
CONFORMANCE_FLAGS ?=
conformance: build osmium-deps
	python3 -m unittest discover -s Tests/conformance -p 'test_*.py'
	OSRM_FEATURES="$(OSRM_FEATURES)" python3 Tests/conformance/conformance.py --bin $(BIN) --out $(OUT)/conformance \
	    $(if $(filter update,$(RATCHET)),--update-ratchet) $(CONFORMANCE_FLAGS)

# The sharded workflow (pipelines/Snakefile) with Snakemake from a project-local venv.
VENV_SCALE := .venv-scale
SNAKEMAKE := $(VENV_SCALE)/bin/snakemake
SCALE_OUT := $(OUT)/scale
# SCALE_FLAGS passes more snakemake flags, e.g. make scale SCALE_FLAGS=--dry-run
SCALE_FLAGS ?=
SCALE_RUN := $(SNAKEMAKE) -s pipelines/Snakefile --configfile pipelines/config/sample.yaml \
	--profile pipelines/profiles/local --config bin=$(BIN) out=$(SCALE_OUT) $(SCALE_FLAGS)

$(SNAKEMAKE): pipelines/requirements-scale.txt
	python3 -m venv $(VENV_SCALE) || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv >/dev/null && python3 -m venv $(VENV_SCALE); }
	$(VENV_SCALE)/bin/pip install --quiet --disable-pip-version-check -r pipelines/requirements-scale.txt
	touch $@

scale-deps: $(SNAKEMAKE) osmium-deps

scale: build scale-deps
	$(SCALE_RUN)
	@echo "scale: outputs in $(SCALE_OUT)/: summary.json (merged), routing/liechtenstein/ (stitched tiles),"
	@echo "  liechtenstein.chg (graph), routing/*.routing.pack, maps/<region>/, basic.stylepack, logs/<rule>/"

# The sharded run equals the single-machine run, and a second run does nothing.
scale-check: pipeline scale
	python3 pipelines/check_scale.py --scale $(SCALE_OUT) --pipeline $(OUT) --name liechtenstein \
	    --bin $(BIN) --pbf samples/liechtenstein.osm.pbf -- $(MAKE) --no-print-directory scale

# Part of make test (after make smoke, whose single-machine outputs it compares with): the Slurm
# profile prints its plan with no cluster at all; the workflow runs through sbatch on a one-node
# Slurm cluster the test starts on loopback and stops (or, on a machine that cannot host slurmd,
# says so and runs the local profile); then faults with the local profile, whose final outputs must
# equal the Slurm run's byte for byte. Results: $(OUT)/scale-slurm.json, logs under $(OUT)/scale-*.
scale-slurm-check: build scale-deps
	@[ -f $(OUT)/smoke/liechtenstein.chg ] || $(MAKE) --no-print-directory smoke
	SLURM_CONF=/nonexistent $(SNAKEMAKE) -s pipelines/Snakefile --configfile pipelines/config/sample.yaml \
	    --profile pipelines/profiles/slurm --config bin=$(BIN) out=$(OUT)/scale-dry-run --dry-run > $(OUT)/scale-dry-run.log 2>&1 \
	  || { cat $(OUT)/scale-dry-run.log; echo "scale-slurm-check: FAIL: the Slurm profile's dry run failed"; exit 1; }
	@grep -q "^graph *1$$" $(OUT)/scale-dry-run.log && grep -q "^routing *4$$" $(OUT)/scale-dry-run.log \
	  || { cat $(OUT)/scale-dry-run.log; echo "scale-slurm-check: FAIL: the dry run printed no plan"; exit 1; }
	@echo "scale-slurm-check: the Slurm profile's dry run prints the plan ($(OUT)/scale-dry-run.log)"
	python3 Tests/scale/slurm_check.py --snakemake $(SNAKEMAKE) --bin $(BIN) --out $(OUT)/scale-slurm --pipeline $(OUT)/smoke
	python3 Tests/scale/faults_check.py --snakemake $(SNAKEMAKE) --bin $(BIN) --out $(OUT)/scale-faults --reference $(OUT)/scale-slurm

proto:
	command -v protoc-c >/dev/null || $(MAKE) deps
	cd proto && protoc-c --c_out=../Sources/OSMPBFProto fileformat.proto osmformat.proto
	mv Sources/OSMPBFProto/*.pb-c.h Sources/OSMPBFProto/include/

bench: build
	bench/pbf-read

clean:
	rm -rf .build $(OUT)

# ---- Fuzzing and sanitizers (issue 54, docs/TESTING.md) -------------------------------------
# The fuzz targets are their own package (Fuzz/), built with libFuzzer and AddressSanitizer, so
# this package's release builds carry no instrumentation. make fuzz runs each target
# FUZZ_SECONDS; findings go to out/fuzz/<target>/ and make it fail.
.PHONY: fuzz fuzz-build fuzz-seeds fuzz-ci test-sanitized test-tsan test-asan sanitizer-build-loop
FUZZ_ALL := pbf routing-tile routing-pack map-pack style-pack graph pmtiles mbtiles json geojson-region \
	repository-index style-document osrm-url batch-line profile location-trace
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_SECONDS ?= 60
# make test's short pass: every target this long.
FUZZ_CI_SECONDS ?= 20
FUZZ_FLAGS ?=
# The sample's car graph the query targets (osrm-url, batch-line) answer from.
FUZZ_GRAPH := $(OUT)/fuzz-graph/liechtenstein.chg

fuzz-build: deps
	$(SWIFT) build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library

$(FUZZ_GRAPH): samples/liechtenstein.osm.pbf profiles/car.json | build
	@mkdir -p $(@D)
	$(BIN)/tilepack-build routing --input $< --output $(@D)/liechtenstein.routing.pack > $(@D)/routing.json
	rm -rf $(@D)/tiles && $(BIN)/tilepack-unpack $(@D)/liechtenstein.routing.pack --output $(@D)/tiles > /dev/null
	$(BIN)/route-graph $(@D)/tiles --output $@ > $(@D)/graph.json

fuzz: fuzz-build $(FUZZ_GRAPH)
	OFFGRID_FUZZ_GRAPH=$(abspath $(FUZZ_GRAPH)) Tests/fuzz/run $(FUZZ_SECONDS) "$(FUZZ_TARGETS)" $(FUZZ_FLAGS)

fuzz-ci: fuzz-build $(FUZZ_GRAPH)
	OFFGRID_FUZZ_GRAPH=$(abspath $(FUZZ_GRAPH)) Tests/fuzz/run $(FUZZ_CI_SECONDS) "$(FUZZ_ALL)"

# Regenerates the committed seed corpora Tests/fuzz-corpus/ from the sample (release tools).
fuzz-seeds: build
	BIN=$(BIN) OUT=$(OUT)/fuzz-seeds Tests/fuzz/make-seeds

# The tests of the parallel and concurrent code (parallel builds, batch workers, both HTTP servers,
# store concurrency) and of the readers, under ThreadSanitizer and then AddressSanitizer, each in
# its own build directory; any report fails the run. Suppressions (Tests/sanitizers/*.supp) only
# with a written reason.
SANITIZED_TESTS ?= OffgridCoreTests|OSMPBFTests|RoutingTilesTests|RoutingPacksTests|PackContainerTests|MapPacksTests|RouteQueryTests\.(Batch|GPXFuzz)|OSRMServerTests\.(OSRMServerTests|ProfileRoutingTests|DamagedGraphServerTests)|TileServerTests|TileStoreTests|RoutingGraphTests\.(SampleGraphTests|GraphFileHeaderSizeTests|GraphFileHostileTests)|TileSourcesTests|StylePacksTests|RoutingProfileTests
TSAN_OPTIONS_RUN := halt_on_error=1 second_deadlock_stack=1 suppressions=$(abspath Tests/sanitizers/tsan.supp)
ASAN_OPTIONS_RUN := halt_on_error=1 detect_leaks=0 suppressions=$(abspath Tests/sanitizers/asan.supp)

test-tsan: deps test-deps
	TSAN_OPTIONS="$(TSAN_OPTIONS_RUN)" $(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter '$(SANITIZED_TESTS)'

test-asan: deps test-deps
	ASAN_OPTIONS="$(ASAN_OPTIONS_RUN)" $(SWIFT) test --sanitize=address --scratch-path .build-asan --filter '$(SANITIZED_TESTS)'

test-sanitized: test-tsan test-asan

# Hunting a rare trap (issue 54's SIGILL): the sample's map, routing and graph builds in loops,
# several at once, with stderr kept. Tests/sanitizers/build-loop --help.
sanitizer-build-loop: build
	Tests/sanitizers/build-loop --bin $(BIN) --out $(OUT)/build-loop
