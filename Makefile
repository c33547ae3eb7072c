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

.PHONY: all deps pydeps osrm-deps test-deps build pipeline test smoke scale scale-check scale-deps proto bench clean help

all: build

help:
	@echo "make pipeline   build (release) and run $(PIPELINE) on the sample into $(OUT)/"
	@echo "make test       build, swift test, then a pipeline smoke run"
	@echo "make scale      build (release) and run the Snakemake workflow on the sample in four regions into $(SCALE_OUT)/"
	@echo "make scale-check  make pipeline and make scale, then check they agree and a re-run does nothing"
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
TEST_APT_PACKAGES :=
test-deps: deps pydeps osrm-deps
	@missing=""; for p in $(TEST_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

pipeline: build pydeps
	$(MAKE) -f $(PIPELINE) BIN=$(BIN) OUT=$(OUT) PYTHON=$(PYTHON)

# The smoke run builds the sample pipeline from scratch in its own directory, checks it,
# and runs it again to check that nothing is rebuilt and the outputs are byte-identical.
smoke: build pydeps
	rm -rf $(OUT)/smoke
	$(MAKE) -f $(PIPELINE) BIN=$(BIN) OUT=$(OUT)/smoke PYTHON=$(PYTHON) check

test: build test-deps
	$(SWIFT) test
	$(MAKE) smoke

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

scale-deps: $(SNAKEMAKE)
	@command -v osmium >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq osmium-tool >/dev/null; }

scale: build scale-deps
	$(SCALE_RUN)
	@echo "scale: outputs in $(SCALE_OUT)/: summary.json (merged), routing/liechtenstein/ (stitched tiles),"
	@echo "  liechtenstein.chg (graph), routing/*.routing.pack, maps/<region>/, basic.stylepack, logs/<rule>/"

# The sharded run equals the single-machine run, and a second run does nothing.
scale-check: pipeline scale
	python3 pipelines/check_scale.py --scale $(SCALE_OUT) --pipeline $(OUT) --name liechtenstein \
	    --bin $(BIN) --pbf samples/liechtenstein.osm.pbf -- $(MAKE) --no-print-directory scale

proto:
	command -v protoc-c >/dev/null || $(MAKE) deps
	cd proto && protoc-c --c_out=../Sources/OSMPBFProto fileformat.proto osmformat.proto
	mv Sources/OSMPBFProto/*.pb-c.h Sources/OSMPBFProto/include/

bench: build
	bench/pbf-read

clean:
	rm -rf .build $(OUT)
