# Packs on demand and the viewer page (issue 55), included by pipelines/liechtenstein.mk after
# publish.mk: nginx on loopback serves $(OUT)/repository; `tilestore serve --repository` starts on
# an EMPTY store (only the style pack installed), MapLibre Native renders a view from the packs it
# fetches on demand ($(OUT)/ondemand-preview.png), headless Chromium opens the viewer page, clicks
# two points and screenshots the route drawn from `route-query serve` ($(OUT)/viewer/); every
# server is stopped after. Needs OFFGRID_MAPLIBRE_DIR (the Makefile sets it) and chromium.
ONDEMAND_SUMMARY := $(OUT)/ondemand-summary.txt

$(ONDEMAND_SUMMARY): $(PUBLISH) $(STYLEPACK) $(GRAPH) pipelines/serve-ondemand.sh Tests/interop/browser_check.py \
                     Tests/interop/render_check.py $(BIN)/tilestore $(BIN)/route-query
	pipelines/serve-ondemand.sh $(BIN) $(OUT) $(PYTHON) $(STYLEPACK) $(GRAPH) > $@.tmp
	cat $@.tmp
	mv $@.tmp $@
