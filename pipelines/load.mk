# Loading from the pack repository (issue 11), included by pipelines/liechtenstein.mk after
# publish.mk: serve $(OUT)/repository and $(OUT)/repository-next from a loopback nginx (file://
# when nginx is absent), load two overlapping regions with routing and the style into a fresh
# store, compile the loaded routing tiles and answer a route, then `update` one region to the
# next version, printing the objects and bytes fetched (only the changed ones).
LOAD_SUMMARY := $(OUT)/load-summary.txt

$(LOAD_SUMMARY): $(PUBLISH) pipelines/serve-and-load.sh Tests/nginx/repository.conf.template \
                 $(BIN)/tilestore $(BIN)/route-graph $(BIN)/route-query
	pipelines/serve-and-load.sh $(BIN) $(OUT) > $@.tmp
	cat $@.tmp
	mv $@.tmp $@
