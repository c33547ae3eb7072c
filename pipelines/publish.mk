# The pack repository (issue 11), included by pipelines/liechtenstein.mk: the sample published
# into $(OUT)/repository/ (maps as tileset `liechtenstein`, routing, the style pack), and the
# sample's next version (samples/make-modified-sample.py: one road and one map tile changed)
# published on top of a hard-linked copy of it, $(OUT)/repository-next/, which `tilestore update
# --from` moves a loaded region to. The copy keeps $(OUT)/repository at the first version
# whatever order make runs things in; objects and version indexes are immutable and index.json
# is replaced by rename, so the hard links are never written through.
#
# Needs: BIN, OUT, PYTHON, PBF, MBTILES, STYLEPACK (from liechtenstein.mk); osmium-tool.
REPOSITORY := $(OUT)/repository
REPOSITORY_NEXT := $(OUT)/repository-next
# One JSON summary line per publish; targets other steps depend on.
PUBLISH_V1 := $(OUT)/publish-v1.ndjson
PUBLISH_V2 := $(OUT)/publish-v2.ndjson
MODIFIED_PBF := $(OUT)/modified/liechtenstein-next.osm.pbf
MODIFIED_MBTILES := $(OUT)/modified/liechtenstein-next.mbtiles
PUBLISH := $(PUBLISH_V1) $(PUBLISH_V2)

$(PUBLISH_V1): $(MBTILES) $(PBF) $(STYLEPACK) profiles/car.json $(BIN)/tilepack-build
	@mkdir -p $(OUT)
	$(BIN)/tilepack-build publish maps --source $(MBTILES) --tileset liechtenstein --repository $(REPOSITORY) --quiet > $@.tmp
	$(BIN)/tilepack-build publish routing --input $(PBF) --repository $(REPOSITORY) --quiet >> $@.tmp
	$(BIN)/tilepack-build publish style --stylepack $(STYLEPACK) --repository $(REPOSITORY) >> $@.tmp
	mv $@.tmp $@

$(MODIFIED_MBTILES) $(MODIFIED_PBF) &: samples/make-modified-sample.py $(PBF) $(MBTILES)
	@mkdir -p $(OUT)/modified
	$(PYTHON) samples/make-modified-sample.py --pbf $(PBF) --pbf-out $(MODIFIED_PBF) --mbtiles $(MBTILES) --mbtiles-out $(MODIFIED_MBTILES)

# The next version writes only the changed objects: 1 map pack, 1 routing tile (checked, printed).
$(PUBLISH_V2): $(PUBLISH_V1) $(MODIFIED_MBTILES) $(MODIFIED_PBF) $(BIN)/tilepack-build
	rm -rf $(REPOSITORY_NEXT) && cp -al $(REPOSITORY) $(REPOSITORY_NEXT)
	$(BIN)/tilepack-build publish maps --source $(MODIFIED_MBTILES) --tileset liechtenstein --repository $(REPOSITORY_NEXT) --quiet > $@.tmp
	$(BIN)/tilepack-build publish routing --input $(MODIFIED_PBF) --repository $(REPOSITORY_NEXT) --quiet >> $@.tmp
	$(PYTHON) -c 'import json,sys; s=[json.loads(l) for l in open(sys.argv[1])]; \
	  assert [(x["kind"],x["outcome"],x["objectsWritten"]) for x in s]==[("maps","published",1),("routing","published",1)], s; \
	  [print("publish: %s %s %s: %d of %d objects new (%d of %d bytes)" % (x["kind"],x["name"],x["version"],x["objectsWritten"],x["objects"],x["bytesWritten"],x["bytes"])) for x in s]' $@.tmp
	mv $@.tmp $@

# Publishing the same input again writes nothing: the repository's files and inodes are unchanged.
publish-check: $(PUBLISH)
	find $(REPOSITORY) -type f -printf '%P %i %s %T@\n' | sort | sha256sum > $(OUT)/repository.before
	$(BIN)/tilepack-build publish maps --source $(MBTILES) --tileset liechtenstein --repository $(REPOSITORY) --quiet | grep -q '"outcome":"unchanged"'
	$(BIN)/tilepack-build publish routing --input $(PBF) --repository $(REPOSITORY) --quiet | grep -q '"outcome":"unchanged"'
	find $(REPOSITORY) -type f -printf '%P %i %s %T@\n' | sort | sha256sum | cmp - $(OUT)/repository.before
	cmp <(cd $(REPOSITORY) && find . -type f ! -name index.json -exec sha256sum {} + | sort) \
	    <(cd $(REPOSITORY_NEXT) && find . -type f -links +1 ! -name index.json -exec sha256sum {} + | sort)
