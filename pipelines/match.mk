# Map matching of the sample's traces (issue 53), included by liechtenstein.mk: a drive from Vaduz
# to Balzers recorded as GPX and as NMEA (samples/make-match-traces.py, seeded noise), matched by
# `route-query match` (OSRM match responses), followed freely by `route-query trace` (NDJSON),
# and the GPX asked of `route-query serve`'s /match, whose body must equal the CLI's bytes.
MATCH_DIR := $(OUT)/match
MATCH_ROUTE := $(MATCH_DIR)/truth-route.json
MATCH_GPX := $(MATCH_DIR)/drive.gpx
MATCH_NMEA := $(MATCH_DIR)/drive.nmea
MATCH_GPX_JSON := $(MATCH_DIR)/match-gpx.json
MATCH_NMEA_JSON := $(MATCH_DIR)/match-nmea.json
MATCH_FREE := $(MATCH_DIR)/free-drive.ndjson
MATCH_SERVE := $(MATCH_DIR)/serve-match-check.txt
MATCH_ALL := $(MATCH_GPX_JSON) $(MATCH_NMEA_JSON) $(MATCH_FREE) $(MATCH_SERVE)

$(MATCH_ROUTE): $(GRAPH) $(BIN)/route-query
	@mkdir -p $(MATCH_DIR)
	$(BIN)/route-query route --graph $(GRAPH) --from $(VADUZ) --to $(BALZERS) --geometries geojson --overview full > $@.tmp && mv $@.tmp $@

# Both traces from one run of the script: the NMEA log is made with the GPX.
$(MATCH_GPX): $(MATCH_ROUTE) samples/make-match-traces.py
	$(PYTHON) samples/make-match-traces.py $(MATCH_ROUTE) $(MATCH_DIR).tmp
	mv $(MATCH_DIR).tmp/drive.nmea $(MATCH_NMEA) && mv $(MATCH_DIR).tmp/drive.gpx $(MATCH_GPX) && rmdir $(MATCH_DIR).tmp
$(MATCH_NMEA): $(MATCH_GPX)

$(MATCH_GPX_JSON): $(MATCH_GPX) $(BIN)/route-query
	$(BIN)/route-query match --graph $(GRAPH) --trace $(MATCH_GPX) --geometries polyline --compact > $@.tmp && mv $@.tmp $@

$(MATCH_NMEA_JSON): $(MATCH_NMEA) $(BIN)/route-query
	$(BIN)/route-query match --graph $(GRAPH) --trace $(MATCH_NMEA) --steps --annotations duration,distance > $@.tmp && mv $@.tmp $@

$(MATCH_FREE): $(MATCH_NMEA) $(BIN)/route-query
	$(BIN)/route-query trace --graph $(GRAPH) --trace $(MATCH_NMEA) > $@.tmp && mv $@.tmp $@

# /match with the GPX's coordinates, times and accuracies (hdop × 5 m) as radiuses: OSRM's
# defaults (geometries=polyline), the same bytes as the CLI's answer for the file.
$(MATCH_SERVE): $(MATCH_GPX_JSON) $(BIN)/route-query
	set -euo pipefail; rm -f $(MATCH_DIR)/serve.out; \
	$(BIN)/route-query serve --graph $(GRAPH) --listen 127.0.0.1:0 --threads 1 > $(MATCH_DIR)/serve.out 2> $(MATCH_DIR)/serve.log & pid=$$!; \
	trap 'kill $$pid 2>/dev/null || true' EXIT; \
	for i in $$(seq 300); do grep -q listening $(MATCH_DIR)/serve.out && break; sleep 0.1; done; \
	url=$$(sed -n 's/.*"listening":"\([^"]*\)".*/\1/p' $(MATCH_DIR)/serve.out); test -n "$$url"; \
	target=$$($(PYTHON) -c 'import re,sys,calendar,time; g=open(sys.argv[1]).read(); \
	  p=re.findall(r"<trkpt lat=\"([^\"]+)\" lon=\"([^\"]+)\"><time>([^<]+)</time><hdop>([^<]+)</hdop>", g); \
	  print("/match/v1/driving/" + ";".join(f"{lo},{la}" for la,lo,_,_ in p) + "?timestamps=" + \
	  ";".join(str(calendar.timegm(time.strptime(t, "%Y-%m-%dT%H:%M:%SZ"))) for _,_,t,_ in p) + "&radiuses=" + \
	  ";".join(repr(float(h) * 5) for _,_,_,h in p))' $(MATCH_GPX)); \
	$(PYTHON) -c 'import sys,urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode() + "\n")' "$$url$$target" > $(MATCH_DIR)/serve-match.json; \
	kill -TERM $$pid; wait $$pid; trap - EXIT; \
	cmp $(MATCH_DIR)/serve-match.json $(MATCH_GPX_JSON); \
	echo "$$url/match answered the GPX trace with the CLI's bytes ($$(wc -c < $(MATCH_GPX_JSON)) bytes)" > $@.tmp; mv $@.tmp $@
