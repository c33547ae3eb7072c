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

.PHONY: all deps build pipeline test smoke proto bench clean help

all: build

help:
	@echo "make pipeline   build (release) and run $(PIPELINE) on the sample into $(OUT)/"
	@echo "make test       build, swift test, then a pipeline smoke run"
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

pipeline: build
	$(MAKE) -f $(PIPELINE) BIN=$(BIN) OUT=$(OUT)

# The smoke run builds the sample pipeline from scratch in its own directory, checks it,
# and runs it again to check that nothing is rebuilt and the outputs are byte-identical.
smoke: build
	rm -rf $(OUT)/smoke
	$(MAKE) -f $(PIPELINE) BIN=$(BIN) OUT=$(OUT)/smoke check

test: build
	$(SWIFT) test
	$(MAKE) smoke

proto:
	command -v protoc-c >/dev/null || $(MAKE) deps
	cd proto && protoc-c --c_out=../Sources/OSMPBFProto fileformat.proto osmformat.proto
	mv Sources/OSMPBFProto/*.pb-c.h Sources/OSMPBFProto/include/

bench: build
	bench/pbf-read

clean:
	rm -rf .build $(OUT)
