#!/usr/bin/env python3
"""OSRM conformance runner: OSRM's cucumber features (car, guidance) against Offgrid's CLI.

For every scenario that runs with the car profile and only uses steps the runner can express,
the map is written as OSM XML exactly as OSRM's support code writes it, converted to PBF with
`osmium cat`, built with `tilepack-build routing` → `tilepack-unpack` → `route-graph`, and
queried through `route-query serve` (OSRM's HTTP API on 127.0.0.1). The `route` and `turns`
cells of `When I route I should get` tables and the `forw`/`backw`/`bothw` cells of
`routability should be` tables are scored as OSRM's support code scores them; `time`,
`distance`, `speed` (and `*_rate`) are recorded next to OSRM's expectation, not scored.

docs/CONFORMANCE.md says how to run it and what is scored. Standard library only.
"""

import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gherkin  # noqa: E402
from osrm_support import (FuzzyMatch, StepError, World, cell_matches, coord_str, js_num,  # noqa: E402
                          js_round, js_str, mode_list, summary_steps, turn_list, unescape_cell,
                          way_list)

REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
TOOL_TIMEOUT = 120
QUERY_TIMEOUT = 30

# Query options Offgrid's server honours (docs/CLI.md, HTTP API); anything else makes the
# scenario (query options) or the row (param: columns) not applicable.
SUPPORTED_PARAMS = {"steps", "alternatives", "geometries", "overview", "annotations", "continue_straight",
                    "bearings", "radiuses", "hints", "generate_hints", "skip_waypoints",
                    "voice_instructions", "banner_instructions", "approaches", "output"}
SUPPORTED_ANNOTATIONS = {"true", "false", "duration", "distance", "speed", "weight", "datasources"}


def unsupported_param(key, value):
    """None when Offgrid can honour `key=value`, else why not."""
    if key not in SUPPORTED_PARAMS:
        return "query option %s=%s (not supported by route-query serve)" % (key, value)
    if key == "annotations":
        bad = [a for a in value.split(",") if a not in SUPPORTED_ANNOTATIONS]
        if bad:
            return "annotations %s (not available: the graph keeps no OSM node ids)" % ",".join(bad)
    if key == "approaches":
        bad = [a for a in value.split(";") if a not in ("", "unrestricted")]
        if bad:
            return "approaches %s (only unrestricted is supported)" % ",".join(sorted(set(bad)))
    if key == "output" and value != "json":
        return "output=%s" % value
    return None


# --------------------------------------------------------------------------------------------
# Steps: what each step text is, and why a step cannot be expressed

DATA_STEPS = [
    ("profile", r'^the profile "([^"]*)"$'),
    ("grid", r"^a grid size of ([0-9.]+) meters$"),
    ("origin", r"^the origin ([-+]?[0-9]*\.?[0-9]+),([-+]?[0-9]*\.?[0-9]+)$"),
    ("shortcuts", r"^the shortcuts$"),
    ("node_map", r"^the node map$"),
    ("node_locations", r"^the node locations$"),
    ("nodes", r"^the nodes$"),
    ("ways", r"^the ways( with locations)?$"),
    ("relations", r"^the relations$"),
    ("remove_node", r'^node "([a-z])" is removed from OSM data$'),
    ("query_options", r"^the query options$"),
    ("route", r"^I route I should get$"),
    ("routability", r"^routability should be$"),
]
NA_STEPS = [
    (r"^the profile file", "a Lua profile file (Offgrid's profile is JSON, profiles/car.json)"),
    (r"^the (extract|contract|partition|customize|data load) extra arguments", "OSRM tool arguments (%s)"),
    (r"^the input file", "an input .osm file instead of a node map"),
    (r"^the raster source$", "a raster source (elevation data)"),
    (r"^the speed file$", "a traffic speed file (osrm-customize --segment-speed-file)"),
    (r"^the turn penalty file$", "a turn penalty file (osrm-customize --turn-penalty-file)"),
    (r"^the data has been (saved to disk|extracted|contracted|partitioned|customized)$",
     "an OSRM processing step run by hand"),
    (r"^osrm-routed is stopped$", "osrm-routed's lifecycle"),
    (r"^I (try to )?run ", "running an OSRM binary"),
    (r"^it should exit", "an OSRM binary's exit status"),
    (r"^(stdout|stderr) should", "an OSRM binary's output"),
    (r"^I request a travel time matrix", "a table (matrix) expectation"),
    (r"^I match I should get", "map matching (not supported)"),
    (r"^I plan a trip", "the trip service (not supported)"),
    (r"^I request nearest", "a nearest expectation"),
]


def classify(step):
    for kind, rx in DATA_STEPS:
        m = re.match(rx, step.text)
        if m:
            return kind, m, None
    for rx, why in NA_STEPS:
        m = re.match(rx, step.text)
        if m:
            if "%s" in why:
                why = why % step.text[m.end():].strip().strip('"')
            return "na", None, why
    return "na", None, "unsupported step: %s" % step.text


def plan(scenario):
    """None when the scenario can run, else the reason it is not applicable."""
    tags = set(scenario.tags)
    if "@todo" in tags:
        return "tagged @todo (OSRM's cucumber profiles skip @todo)"
    if "@stress" in tags:
        return "tagged @stress (OSRM skips it)"
    if "@mld" in tags and "@ch" not in tags:
        return "tagged @mld (OSRM runs it with the MLD algorithm only)"
    profile = None
    has_query = False
    for step in scenario.background + scenario.steps:
        kind, m, why = classify(step)
        if kind == "na":
            return why
        if kind == "profile":
            profile = m.group(1)
        if kind == "query_options":
            for row in step.table or []:
                if len(row) >= 2:
                    bad = unsupported_param(row[0], row[1])
                    if bad:
                        return bad
        if kind in ("route", "routability"):
            has_query = True
    if profile is None:
        return "no profile given: OSRM's default profile is bicycle"
    if profile != "car":
        return "profile %s" % profile
    if not has_query:
        return "no route or routability expectation"
    return None


# --------------------------------------------------------------------------------------------
# Building a map with the Offgrid tools (cached by map content and tool binaries)

class BuildError(Exception):
    def __init__(self, stage, message):
        super().__init__("%s: %s" % (stage, message))
        self.stage = stage
        self.message = message


class Builder:
    def __init__(self, bindir, workdir, profile=None, jobs_threads=1):
        self.bindir = bindir
        # None: the tools' built-in car profile (they run in the map's directory, which has no
        # profiles/car.json); else this profile file for tilepack-build and route-graph.
        self.profile_args = ["--profile", profile] if profile else []
        self.workdir = workdir
        self.threads = jobs_threads
        self.locks = {}
        self.locks_lock = threading.Lock()
        self.stats = Counter()
        self.seconds = Counter()

    def tool(self, name):
        return os.path.join(self.bindir, name)

    def run(self, stage, argv, cwd):
        t0 = time.monotonic()
        try:
            p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=TOOL_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise BuildError(stage, "timed out after %ds" % TOOL_TIMEOUT)
        except OSError as e:
            raise BuildError(stage, "cannot run %s: %s" % (argv[0], e))
        finally:
            self.seconds[stage] += time.monotonic() - t0
        if p.returncode != 0:
            err = p.stderr.decode("utf-8", "replace").strip().splitlines()
            msg = err[-1] if err else "exit %d" % p.returncode
            raise BuildError(stage, "exit %d: %s" % (p.returncode, msg))
        return p.stdout

    def build(self, xml):
        key = hashlib.sha256(xml.encode("utf-8")).hexdigest()[:20]
        with self.locks_lock:
            lock = self.locks.setdefault(key, threading.Lock())
        d = os.path.join(self.workdir, key)
        with lock:
            done = os.path.join(d, "done.json")
            if os.path.exists(done):
                self.stats["cached"] += 1
                with open(done) as f:
                    r = json.load(f)
                if r.get("error"):
                    raise BuildError(r["error"]["stage"], r["error"]["message"])
                return r["graph"]
            self.stats["built"] += 1
            if os.path.isdir(d):
                shutil.rmtree(d)
            os.makedirs(d)
            osm = os.path.join(d, "map.osm")
            with open(osm, "w", encoding="utf-8") as f:
                f.write(xml)
            pbf = os.path.join(d, "map.osm.pbf")
            pack = os.path.join(d, "map.routing.pack")
            tiles = os.path.join(d, "tiles")
            chg = os.path.join(d, "map.chg")
            t = str(self.threads)
            result = {"graph": chg}
            try:
                self.run("osmium", ["osmium", "cat", "--no-progress", "-O", "-o", pbf, osm], d)
                out = self.run("tilepack-build", [self.tool("tilepack-build"), "routing", "--input", pbf,
                                                  "--output", pack, "--threads", t, "--quiet", "--progress", "none"], d)
                try:
                    result["pack"] = json.loads(out)
                except ValueError:
                    pass
                self.run("tilepack-unpack", [self.tool("tilepack-unpack"), pack, "--output", tiles,
                                             "--threads", t, "--quiet", "--progress", "none"], d)
                out = self.run("route-graph", [self.tool("route-graph"), tiles, "--output", chg,
                                               "--threads", t, "--quiet", "--progress", "none"] + self.profile_args, d)
                try:
                    g = json.loads(out)
                    result["graphSummary"] = {k: g.get(k) for k in ("nodes", "edges", "restrictions",
                                                                    "restrictedTurns", "components")}
                except ValueError:
                    pass
            except BuildError as e:
                result = {"error": {"stage": e.stage, "message": e.message}}
            with open(done, "w") as f:
                json.dump(result, f)
            if "error" in result:
                raise BuildError(result["error"]["stage"], result["error"]["message"])
            return chg


# --------------------------------------------------------------------------------------------
# Querying: route-query serve on loopback

class Server:
    def __init__(self, bindir, graph):
        try:
            self.proc = subprocess.Popen(
                [os.path.join(bindir, "route-query"), "serve", "--graph", graph, "--listen", "127.0.0.1:0",
                 "--threads", "1"],
                cwd=os.path.dirname(graph), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as e:
            raise BuildError("route-query serve", "cannot run route-query: %s" % e)
        self.base = None
        line = self._readline(20)
        if not line:
            err = self._stop_and_stderr()
            raise BuildError("route-query serve", "did not start: %s" % (err or "no output"))
        try:
            self.base = json.loads(line)["listening"]
        except (ValueError, KeyError):
            self._stop_and_stderr()
            raise BuildError("route-query serve", "unexpected first line %r" % line[:200])
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _readline(self, timeout):
        box = []
        t = threading.Thread(target=lambda: box.append(self.proc.stdout.readline()), daemon=True)
        t.start()
        t.join(timeout)
        return box[0].decode("utf-8", "replace").strip() if box else ""

    def _stop_and_stderr(self):
        self.close()
        try:
            return self.proc.stderr.read().decode("utf-8", "replace").strip().splitlines()[-1]
        except Exception:
            return ""

    def get(self, path):
        """(HTTP status, body text); raises on transport errors."""
        url = self.base + path
        try:
            with self.opener.open(url, timeout=QUERY_TIMEOUT) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")

    def close(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for s in (self.proc.stdout,):
            try:
                s.close()
            except Exception:
                pass


def route_path(world, waypoints, bearings, approaches, params):
    """support/route.js requestRoute + paramsToQuery: the request path and query string."""
    if bearings and len(bearings) != len(waypoints):
        raise StepError("*** number of bearings does not equal the number of waypoints")
    if approaches and len(approaches) != len(waypoints):
        raise StepError("*** number of approaches does not equal the number of waypoints")
    p = OrderedDict([("output", "json"), ("steps", "true"), ("alternatives", "false")])
    for k, v in params.items():
        p[k] = v
    coords = ";".join("%s,%s" % (coord_str(w.lon), coord_str(w.lat)) for w in waypoints)
    if bearings:
        bs = []
        for b in bearings:
            if b == "*":
                bs.append("")
            elif len(b.split(",")) == 2:
                bs.append(b)
            else:
                bs.append(b + ",10")
        p["bearings"] = ";".join(bs)
    if approaches:
        p["approaches"] = ";".join(approaches)
    output = p.pop("output", "json")
    q = coords + ("." + output if output and output != "json" else "")
    path = "/route/v1/%s/%s" % (world.profile, urllib.parse.quote(q, safe=",;.()-+"))
    if p:
        path += "?" + "&".join("%s=%s" % (k, urllib.parse.quote(str(v), safe=",;:.-+")) for k, v in p.items())
    return path


def response_summary(status, body):
    try:
        j = json.loads(body)
    except ValueError:
        return {"http": status, "body": body[:300]}
    s = {"http": status, "code": j.get("code")}
    if j.get("message"):
        s["message"] = j["message"]
    if j.get("code") == "Ok" and j.get("routes"):
        r = j["routes"][0]
        s["distance"] = r.get("distance")
        s["duration"] = r.get("duration")
        s["weight"] = r.get("weight")
        s["steps"] = summary_steps(r)
    if j.get("waypoints"):
        s["waypoints"] = [{"name": w.get("name"), "location": w.get("location"),
                           "distance": w.get("distance")} for w in j["waypoints"]]
    return s


# --------------------------------------------------------------------------------------------
# Failure categories (for the report; the scores do not depend on them)

def _collapse(names):
    out = []
    for n in names:
        if not out or out[-1] != n:
            out.append(n)
    return out


def route_category(want, got, code):
    if want == "" and got != "":
        return "route found where OSRM has none"
    if want != "" and got == "":
        return "no route where OSRM has one (%s)" % code
    if want.startswith("/"):
        return "regular expression not matched"
    w, g = want.split(","), got.split(",")
    if _collapse(w) == _collapse(g) or sorted(set(w)) == sorted(set(g)) and _collapse(w) == _collapse(g):
        if len(g) > len(w):
            return "same roads, an extra step OSRM does not emit"
        return "same roads, a step OSRM emits is missing"
    if w[0] != g[0] and w[1:] == g[1:]:
        return "starts on another road (snapping at the origin)"
    if len(w) >= 2 and len(g) >= 2 and w[-1] == w[-2] and g[-1] == g[-2] and _collapse(w[:-1]) != _collapse(g[:-1]) \
            and (_collapse(g[:-2]) == _collapse(w[:-1]) or _collapse(w[:-2]) == _collapse(g[:-1])):
        return "ends on another road (snapping at the destination)"
    if set(w) == set(g):
        return "same roads, different order of step names"
    if set(g) < set(w):
        return "a road OSRM announces has no step"
    if set(w) < set(g):
        return "extra road names in the steps (a road OSRM does not announce, or another path)"
    return "different path"


def turn_token(t):
    """('type', 'modifier or exit')."""
    if t in ("depart", "arrive"):
        return t, ""
    m = re.match(r"^(roundabout|rotary|.*)-exit-(.*)$", t)
    if m and not t.startswith("roundabout turn"):
        return "roundabout" if m.group(1) == "roundabout" else "rotary", "exit-" + m.group(2)
    for ty in ("roundabout turn", "exit roundabout", "exit rotary", "end of road", "new name", "on ramp",
               "off ramp", "use lane", "notification", "continue", "turn", "merge", "fork", "roundabout", "rotary"):
        if t.startswith(ty + " ") or t == ty:
            return ty, t[len(ty):].strip()
    return t, ""


def turns_category(want, got, route_ok):
    if not route_ok:
        return "turns differ because the route differs"
    if got == "":
        return "no route where OSRM has one"
    w, g = want.split(","), got.split(",")
    if len(w) != len(g):
        return "different number of steps"
    for a, b in zip(w, g):
        if a == b:
            continue
        ta, tb = turn_token(a), turn_token(b)
        if ta[0] != tb[0]:
            if "roundabout" in ta[0] or "rotary" in ta[0] or "roundabout" in tb[0] or "rotary" in tb[0]:
                return "roundabout/rotary maneuver type (%s vs %s)" % (ta[0], tb[0])
            return "wrong maneuver type (%s vs %s)" % (ta[0], tb[0])
        if ta[0] in ("roundabout", "rotary"):
            if ta[1] == "exit-undefined":
                return "roundabout exit number where OSRM gives none (arriving on the roundabout)"
            return "wrong roundabout exit number"
        return "wrong modifier (%s)" % ta[0]
    return "turns differ"


# --------------------------------------------------------------------------------------------
# Running one scenario

def scored_fail_cells(step, reason, cat):
    """Every scored cell of a table that could not be queried (map rejected, Offgrid error)."""
    rows = []
    cols = ("route", "turns") if step_kind(step) == "route" else ("forw", "backw", "bothw")
    for row in step.hashes():
        cells = {}
        for c in cols:
            if c in row:
                cells[c] = {"expected": row[c], "got": None, "pass": False, "scored": True,
                            "category": cat}
        rows.append({"row": row, "cells": cells, "error": reason})
    return rows


def step_kind(step):
    return classify(step)[0]


class ScenarioRunner:
    def __init__(self, ctx, fpath, scenario):
        self.ctx = ctx
        self.fpath = fpath
        self.sc = scenario
        self.world = World()
        self.server = None
        self.load_error = None

    def load(self):
        if self.server is not None or self.load_error is not None:
            return
        try:
            graph = self.ctx.builder.build(self.world.to_xml())
            self.server = Server(self.ctx.bindir, graph)
        except BuildError as e:
            self.load_error = e

    def run(self):
        res = {"file": self.fpath, "scenario": self.sc.name, "line": self.sc.line, "status": "ran",
               "tables": []}
        t0 = time.monotonic()
        try:
            for step in self.sc.background + self.sc.steps:
                kind, m, _ = classify(step)
                w = self.world
                if kind == "profile":
                    w.profile = m.group(1)
                elif kind == "grid":
                    w.set_grid_size(m.group(1))
                elif kind == "origin":
                    w.set_origin((float(m.group(1)), float(m.group(2))))
                elif kind == "shortcuts":
                    for row in step.hashes():
                        w.shortcuts[row["key"]] = row["value"]
                elif kind == "node_map":
                    w.node_map(step.docstring or "")
                elif kind == "node_locations":
                    w.node_locations(step.hashes())
                elif kind == "nodes":
                    w.nodes_table(step.hashes())
                elif kind == "ways":
                    w.ways_table(step.hashes())
                elif kind == "relations":
                    w.relations_table(step.table)
                elif kind == "remove_node":
                    w.remove_node(m.group(1))
                elif kind == "query_options":
                    for row in step.table or []:
                        w.query_params[row[0]] = row[1]
                elif kind == "route":
                    self.load()
                    res["tables"].append(self.route_table(step))
                elif kind == "routability":
                    w.build_ways_from_table(step.hashes())
                    self.load()
                    res["tables"].append(self.routability_table(step))
        except StepError as e:
            res["status"] = "step-error"
            res["error"] = str(e)
            # the scenario fails in OSRM's run too; its remaining tables count as failed
            done = len(res["tables"])
            for step in [s for s in self.sc.background + self.sc.steps if step_kind(s) in ("route", "routability")][done:]:
                res["tables"].append({"kind": step_kind(step), "line": step.line,
                                      "rows": scored_fail_cells(step, str(e), "support code error: " + str(e))})
        finally:
            if self.server is not None:
                self.server.close()
        if self.load_error is not None:
            res["status"] = "build-error"
            res["error"] = str(self.load_error)
        res["seconds"] = round(time.monotonic() - t0, 3)
        return res

    def fail_table(self, step, kind):
        e = self.load_error
        cat = "map rejected by %s: %s" % (e.stage, _short(e.message)) if e.stage != "route-query serve" \
            else "route-query serve failed: %s" % _short(e.message)
        return {"kind": kind, "line": step.line, "rows": scored_fail_cells(step, str(e), cat)}

    def query(self, path):
        try:
            return self.server.get(path)
        except Exception as e:  # transport error: the server died or hung
            return None, json.dumps({"code": "TransportError", "message": str(e)})

    def route_table(self, step):
        if self.load_error is not None:
            return self.fail_table(step, "route")
        w = self.world
        headers = step.table[0] if step.table else []
        out_rows = []
        for row in step.hashes():
            out = {"row": row, "cells": {}}
            out_rows.append(out)
            na = None
            if "request" in headers:
                na = "raw request URL column"
            params = OrderedDict(w.query_params)
            for k, v in row.items():
                mm = re.match(r"param:(.*)", k)
                if mm and v:
                    na = na or ("param: column (%s)" % k)
            approaches = [a for a in row.get("approaches", "").split(" ") if a]
            if approaches and any(a != "unrestricted" for a in approaches):
                na = na or "approaches %s (only unrestricted is supported)" % row["approaches"]
            if na:
                out["na"] = na
                continue
            bearings = [b for b in row.get("bearings", "").split(" ") if b]
            try:
                if row.get("from") and row.get("to"):
                    names = [row["from"], row["to"]]
                elif row.get("waypoints"):
                    names = [n.strip() for n in row["waypoints"].split(",")]
                else:
                    raise StepError("*** no waypoints")
                wps = []
                for n in names:
                    node = w.find_node_by_name(n)
                    if not node:
                        raise StepError('*** unknown waypoint node "%s"' % n)
                    wps.append(node)
                path = route_path(w, wps, bearings, approaches, params)
            except StepError as e:
                out["error"] = str(e)
                for c in ("route", "turns"):
                    if c in row:
                        out["cells"][c] = {"expected": row[c], "got": None, "pass": False, "scored": True,
                                           "category": "support code error: " + str(e)}
                continue
            status, body = self.query(path)
            out["request"] = path
            out["response"] = response_summary(status, body)
            try:
                j = json.loads(body)
            except ValueError:
                j = {"code": "InvalidJSON"}
            code = j.get("code")
            has_route = code == "Ok" and bool(j.get("routes"))
            instructions = way_list(j["routes"][0]) if has_route else None
            got = {}
            got["route"] = (instructions or "").strip()
            got["turns"] = turn_list(j["routes"][0]) if instructions else ""
            r0 = j["routes"][0] if has_route else {}
            distance, duration = r0.get("distance"), r0.get("duration")
            got["time"] = ("%ss" % js_num(duration)) if instructions else ""
            got["distance"] = ("%sm" % js_num(distance)) if (row.get("distance") and instructions) else ""
            if row.get("speed", "") != "" and instructions:
                sp = js_round(3.6 * distance / duration) if duration and duration > 0 else None
                got["speed"] = "%s km/h" % (js_num(int(sp)) if sp is not None else "null")
            else:
                got["speed"] = ""
            got["modes"] = mode_list(r0) if instructions else ""
            got["weight"] = js_num(r0.get("weight")) if instructions else ""
            # waypoints on a way's node that Offgrid snapped elsewhere, and zero-length steps
            # at either end (the diagnosis of a failing cell; not part of the scores)
            on_way = {n.tags.get("name") for way in w.ways for n in way.nodes}
            far = []
            for n, wp in zip(names, j.get("waypoints") or []):
                if n in on_way and (wp.get("distance") or 0) > 1.0:
                    far.append("%s %dm" % (n, round(wp["distance"])))
            steps = out["response"].get("steps") or []
            zero_end = len(steps) >= 3 and steps[-2].get("distance") == 0 and steps[-2].get("type") != "depart"
            zero_start = len(steps) >= 3 and steps[0].get("distance") == 0
            if far:
                out["snappedAway"] = far
            route_ok = True
            for c in ("route", "turns", "time", "distance", "speed", "modes", "weight"):
                if c not in row:
                    continue
                want = row[c]
                ok = cell_matches(got[c], want)
                cell = {"expected": want, "got": got[c], "pass": ok, "scored": c in ("route", "turns")}
                if not ok and c == "route":
                    route_ok = False
                    if far:
                        cell["category"] = ("waypoint snapped to another road, away from its node "
                                            "(largest-component preference)")
                    elif zero_end and got[c] != "":
                        cell["category"] = "zero-length step onto the next road at the destination node"
                    elif zero_start and got[c] != "":
                        cell["category"] = "zero-length first step on another road at the origin node"
                    elif ("uturn" in row.get("turns", "") and "uturn" not in got["turns"] and got[c] != ""):
                        cell["category"] = "OSRM makes a u-turn here, Offgrid does not (another path or no route)"
                    else:
                        cell["category"] = route_category(unescape_cell(want), got[c], code)
                out["cells"][c] = cell
            if "turns" in out["cells"] and not out["cells"]["turns"]["pass"]:
                cat = turns_category(unescape_cell(row["turns"]), got["turns"], route_ok and has_route)
                if not route_ok and "route" in out["cells"]:
                    cat = "route differs: " + out["cells"]["route"]["category"]
                elif far and not route_ok:
                    cat = "route differs: waypoint snapped to another road"
                out["cells"]["turns"]["category"] = cat
        return {"kind": "route", "line": step.line, "rows": out_rows}

    def routability_direction(self, i, direction):
        w = self.world
        a, b = w.routability_coords(i)
        path = route_path(w, [a, b] if direction == "forw" else [b, a], [], [], OrderedDict(w.query_params))
        status, body = self.query(path)
        r = {"request": path, "response": response_summary(status, body)}
        try:
            j = json.loads(body)
        except ValueError:
            j = {}
        r["code"] = j.get("code")
        r["status"] = "x" if status == 200 else None
        if r["status"]:
            route = j["routes"][0]
            r["route"] = way_list(route)
            if r["route"].split(",")[0] == "w%d" % i:
                r["time"] = route.get("duration")
                r["distance"] = route.get("distance")
                wgt = route.get("weight")
                if wgt:
                    r["rate"] = js_round(r["distance"] / wgt * 10) / 10
                else:
                    r["rate"] = float("nan") if not r["distance"] else float("inf")
                r["speed"] = int(3.6 * r["distance"] / r["time"]) if r["time"] and r["time"] > 0 else None
                steps = (route.get("legs") or [{}])[0].get("steps") or []
                if steps:
                    r["mode"] = steps[0].get("mode")
            else:
                r["status"] = None
        return r

    def routability_table(self, step):
        if self.load_error is not None:
            return self.fail_table(step, "routability")
        w = self.world
        rows = step.hashes()
        headers = set(rows[0].keys()) if rows else set()
        out_rows = []
        for i, row in enumerate(rows):
            res = {d: self.routability_direction(i, d) for d in ("forw", "backw")}
            both = {}
            for k in ("rate", "status", "time", "distance", "speed", "mode"):
                fv, bv = res["forw"].get(k), res["backw"].get(k)
                both[k] = fv if fv == bv else "diff"  # JS ===: NaN differs from NaN
            both["code"] = "/".join(sorted({str(res["forw"].get("code")), str(res["backw"].get("code"))}))
            res["bothw"] = both
            out = {"row": row, "cells": {}, "forw": _dir_summary(res["forw"]), "backw": _dir_summary(res["backw"])}
            for d in ("forw", "backw", "bothw"):
                rate = d + "_rate"
                if rate in headers:
                    want = row[rate]
                    if want == "":
                        g = js_str(res[d]["status"]) if res[d].get("status") else ""
                    elif re.match(r"^\d+(\.\d+){0,1}$", want):
                        rv = res[d].get("rate")
                        g = js_str(rv) if isinstance(rv, (int, float)) and rv == rv else ""
                    else:
                        g = "<unknown expectation format>"
                    out["cells"][rate] = {"expected": want, "got": g, "pass": cell_matches(g, want), "scored": False}
            for d in ("forw", "backw", "bothw"):
                if d not in headers:
                    continue
                want = row[d]
                shortcut = None
                if want in w.shortcuts:
                    shortcut = want
                    want = w.shortcuts[want]
                r = res[d]
                if want == "":
                    g = r.get("mode") if r.get("status") else ""
                elif want == "x":
                    g = "x" if r.get("status") else ""
                elif re.match(r"^[\d.]+ s", want):
                    t = r.get("time")
                    g = (("%s s" % js_num(t)) if isinstance(t, (int, float)) else js_str(t)) if t else ""
                elif re.match(r"^\d+ km/h", want):
                    s = r.get("speed")
                    g = (("%s km/h" % js_num(s)) if isinstance(s, (int, float)) else js_str(s)) if s else ""
                else:
                    g = r.get("mode") or ""
                ok = FuzzyMatch.match(g, want) or unescape_cell(row[d]) == (g if isinstance(g, str) else js_str(g))
                value_match = None
                if re.match(r"^[\d.]+ s", want) or re.match(r"^\d+ km/h", want):
                    # A speed or time is the profile's own choice (Offgrid's defaults follow measured
                    # durations, not OSRM's): recorded next to OSRM's like the time, distance and
                    # speed columns, while the cell scores what is a rule, that the direction routes.
                    value_match = ok
                    ok = bool(r.get("status"))
                cell = {"expected": row[d], "got": g if (g is None or isinstance(g, str)) else js_str(g),
                        "pass": ok, "scored": True}
                if value_match is not None:
                    cell["valueMatches"] = value_match
                if shortcut:
                    cell["shortcut"] = want
                if not ok:
                    cell["category"] = routability_category(want, g, r)
                    cell["tags"] = sorted(k for k, v in row.items() if v and not re.match(r"^(forw|backw|bothw)", k))
                out["cells"][d] = cell
            out_rows.append(out)
        return {"kind": "routability", "line": step.line, "rows": out_rows}


def _dir_summary(r):
    d = {k: r.get(k) for k in ("code", "status", "route", "time", "distance", "speed", "mode")}
    d["request"] = r.get("request")
    rv = r.get("rate")
    d["rate"] = js_str(rv) if isinstance(rv, float) else rv
    return d


def routability_category(want, got, r):
    if got in ("", None):
        if r.get("route") is not None and r.get("status") is None and r.get("code") == "Ok":
            return "routability: route does not start on the test way (%s)" % r.get("route")
        return "routability: not routable where OSRM routes (%s)" % (r.get("code") or "no answer")
    if want == "":
        return "routability: routable where OSRM refuses"
    if re.match(r"^\d+ km/h", want):
        return "routability: speed differs"
    if re.match(r"^[\d.]+ s", want):
        return "routability: time differs"
    if got == "diff":
        return "routability: directions differ (bothw)"
    return "routability: mode or value differs"


def _short(msg):
    msg = re.sub(r"/[^ :]*/", "", msg)
    return msg[:120]


# --------------------------------------------------------------------------------------------
# Aggregation, printing, the ratchet

class Ctx:
    pass


MAP_TOOLS = ("tilepack-build", "tilepack-unpack", "route-graph")


def tool_fingerprint(bindir, profile, tools=MAP_TOOLS):
    # By default the tools that make a map's graph: route-query only reads it, so a guidance
    # change re-runs the queries on the cached graphs.
    h = hashlib.sha256()
    for name in tools:
        p = os.path.join(bindir, name)
        st = os.stat(p)
        h.update(("%s:%d:%d;" % (name, st.st_size, st.st_mtime_ns)).encode())
    if profile:
        with open(profile, "rb") as f:
            h.update(f.read())
    # The runner's own code too: a map it wrote or ran wrongly is not kept past a fix.
    for name in ("conformance.py", "osrm_support.py", "gherkin.py"):
        with open(os.path.join(HERE, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def tally(results):
    per_file = OrderedDict()
    for r in results:
        f = per_file.setdefault(r["file"], {"scenarios": 0, "ran": 0, "na": 0, "route_pass": 0, "route_total": 0,
                                             "turns_pass": 0, "turns_total": 0, "routability_pass": 0,
                                             "routability_total": 0, "rows_na": 0, "build_errors": 0})
        f["scenarios"] += 1
        if r["status"] == "na":
            f["na"] += 1
            continue
        f["ran"] += 1
        if r["status"] == "build-error":
            f["build_errors"] += 1
        for t in r.get("tables", []):
            for row in t["rows"]:
                if row.get("na"):
                    f["rows_na"] += 1
                    continue
                for col, c in row["cells"].items():
                    if not c.get("scored"):
                        continue
                    if col == "turns":
                        f["turns_total"] += 1
                        f["turns_pass"] += c["pass"]
                    else:
                        f["route_total"] += 1
                        f["route_pass"] += c["pass"]
                        if t["kind"] == "routability":
                            f["routability_total"] += 1
                            f["routability_pass"] += c["pass"]
    tot = {k: sum(v[k] for v in per_file.values()) for k in
           ("scenarios", "ran", "na", "route_pass", "route_total", "turns_pass", "turns_total",
            "routability_pass", "routability_total", "rows_na", "build_errors")}
    return per_file, tot


def rate(p, t):
    return round(p / t, 4) if t else 0.0


def print_table(per_file, tot, out=sys.stdout):
    w = max([len(k) for k in per_file] + [5])
    hdr = "%-*s %9s %13s %13s %5s" % (w, "file", "scenarios", "route", "turns", "n/a")
    print(hdr, file=out)
    print("-" * len(hdr), file=out)

    def frac(p, t):
        return "%d/%d" % (p, t) if t else "-"
    for k, v in per_file.items():
        print("%-*s %9d %13s %13s %5d" % (w, k, v["scenarios"], frac(v["route_pass"], v["route_total"]),
                                           frac(v["turns_pass"], v["turns_total"]), v["na"]), file=out)
    print("-" * len(hdr), file=out)
    print("%-*s %9d %13s %13s %5d" % (w, "total", tot["scenarios"], frac(tot["route_pass"], tot["route_total"]),
                                       frac(tot["turns_pass"], tot["turns_total"]), tot["na"]), file=out)
    print("route cells %.1f %% (of which routability %d/%d), turns cells %.1f %%; %d scenarios ran, %d n/a, "
          "%d rows n/a, %d scenarios whose map Offgrid rejected"
          % (100 * rate(tot["route_pass"], tot["route_total"]), tot["routability_pass"], tot["routability_total"],
             100 * rate(tot["turns_pass"], tot["turns_total"]), tot["ran"], tot["na"], tot["rows_na"],
             tot["build_errors"]), file=out)


def categories(results):
    route, turns, na = Counter(), Counter(), Counter()
    for r in results:
        if r["status"] == "na":
            na[r["reason"]] += 1
            continue
        for t in r.get("tables", []):
            for row in t["rows"]:
                if row.get("na"):
                    na["row: " + row["na"]] += 1
                for col, c in row["cells"].items():
                    if c.get("scored") and not c["pass"]:
                        (turns if col == "turns" else route)[c.get("category", "other")] += 1
    return route, turns, na


def write_failures(results, path):
    """A readable list of every failing scored cell, scenario by scenario."""
    lines = []
    for r in results:
        if r["status"] == "na":
            continue
        head = "== %s:%d %s" % (r["file"], r["line"], r["scenario"])
        body = []
        if r.get("error"):
            body.append("   error: %s" % r["error"].strip().splitlines()[-1])
        for t in r.get("tables", []):
            for row in t["rows"]:
                bad = [(c, v) for c, v in row["cells"].items() if v.get("scored") and not v["pass"]]
                if not bad:
                    continue
                if t["kind"] == "route":
                    q = row["row"].get("waypoints") or "%s,%s" % (row["row"].get("from"), row["row"].get("to"))
                else:
                    q = " ".join("%s=%s" % (k, v) for k, v in row["row"].items()
                                 if v and not re.match(r"^(forw|backw|bothw)", k)) or "(defaults)"
                body.append("  %s" % q)
                for c, v in bad:
                    body.append("     %-6s want %-40s got %s   [%s]" % (c, json.dumps(v["expected"], ensure_ascii=False),
                                                                      json.dumps(v["got"], ensure_ascii=False),
                                                                      v.get("category", "")))
        if body:
            lines.append(head)
            lines.extend(body)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def write_markdown(per_file, tot, route_cats, turns_cats, na_reasons, report, path):
    """The per-file table and the top categories as Markdown (for docs/CONFORMANCE.md)."""
    def frac(p, t):
        return "%d/%d" % (p, t) if t else "-"
    out = ["| file | scenarios | route | turns | n/a |", "|---|---:|---:|---:|---:|"]
    for k, v in per_file.items():
        out.append("| %s | %d | %s | %s | %d |" % (k, v["scenarios"], frac(v["route_pass"], v["route_total"]),
                                                   frac(v["turns_pass"], v["turns_total"]), v["na"]))
    out.append("| **total** | %d | %s (%.1f %%) | %s (%.1f %%) | %d |" % (
        tot["scenarios"], frac(tot["route_pass"], tot["route_total"]), 100 * rate(tot["route_pass"], tot["route_total"]),
        frac(tot["turns_pass"], tot["turns_total"]), 100 * rate(tot["turns_pass"], tot["turns_total"]), tot["na"]))
    out.append("")
    out.append("Run of %s: %.0f s on %d jobs; OSRM features at %s." % (report["generated"], report["seconds"],
                                                                      report["jobs"], report["osrmCommit"]))
    for title, cats in (("route cells", route_cats), ("turns cells", turns_cats), ("not applicable", na_reasons)):
        out.append("")
        out.append("Top failure categories, %s:" % title if title != "not applicable" else "Not applicable:")
        out.append("")
        for k, v in cats.most_common(15):
            out.append("- %d × %s" % (v, k))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def git_commit_of_features(features):
    p = os.path.join(features, "OSRM_COMMIT")
    if os.path.exists(p):
        with open(p) as f:
            return f.read().strip()
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--features", default=os.environ.get("OSRM_FEATURES") or os.path.join(REPO, "..", "shared", "osrm-features"),
                    help="directory of OSRM's .feature files (env OSRM_FEATURES; default ../shared/osrm-features)")
    ap.add_argument("--bin", default=os.path.join(REPO, ".build", "release"), help="directory of the Offgrid tools")
    ap.add_argument("--out", default=os.path.join(REPO, "out", "conformance"), help="report and work directory")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="scenarios run in parallel")
    ap.add_argument("--profile", help="profile JSON for route-graph (default: the tools' "
                    "built-in car profile, the copy of profiles/car.json they were built with)")
    ap.add_argument("--ratchet", default=os.path.join(HERE, "ratchet.json"))
    ap.add_argument("--update-ratchet", action="store_true", help="record this run's pass rates in the ratchet")
    ap.add_argument("--no-ratchet", action="store_true", help="do not compare with the ratchet")
    ap.add_argument("--filter", action="append", default=[],
                    help="only feature files whose path contains this (repeatable)")
    ap.add_argument("--scenario", help="only scenarios whose name contains this")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    # The tools run in each map's own directory: every path they are given must be absolute
    # (`make conformance` passes relative ones).
    args.out = os.path.abspath(args.out)
    args.bin = os.path.abspath(args.bin)

    features = os.path.abspath(args.features)
    if not os.path.isdir(features):
        print("conformance: skipped: no OSRM features at %s; set OSRM_FEATURES to the directory of OSRM's "
              "car/ and guidance/ .feature files" % features)
        return 0
    for t in ("tilepack-build", "tilepack-unpack", "route-graph", "route-query"):
        if not os.access(os.path.join(args.bin, t), os.X_OK):
            print("conformance: %s missing in %s (make build)" % (t, args.bin), file=sys.stderr)
            return 2
    if shutil.which("osmium") is None:
        print("conformance: osmium (osmium-tool) not found; make osmium-deps", file=sys.stderr)
        return 2

    files = []
    for root, _, names in os.walk(features):
        for n in names:
            if n.endswith(".feature"):
                rel = os.path.relpath(os.path.join(root, n), features)
                if not args.filter or any(f in rel for f in args.filter):
                    files.append(rel)
    files.sort()

    t_start = time.monotonic()
    profile = os.path.abspath(args.profile) if args.profile else None
    fp = tool_fingerprint(args.bin, profile)
    # Every tool the run uses, to tell whether any was rebuilt during it.
    all_tools_fp = tool_fingerprint(args.bin, profile, MAP_TOOLS + ("route-query",))
    cache_root = os.path.join(args.out, "cache")
    os.makedirs(cache_root, exist_ok=True)
    for d in os.listdir(cache_root):
        if d != fp:
            shutil.rmtree(os.path.join(cache_root, d), ignore_errors=True)
    ctx = Ctx()
    ctx.bindir = os.path.abspath(args.bin)
    ctx.builder = Builder(ctx.bindir, os.path.join(cache_root, fp), profile)

    jobs = []  # (index, file, scenario)
    results = []
    for rel in files:
        feat = gherkin.parse(os.path.join(features, rel))
        for sc in feat.scenarios:
            if args.scenario and args.scenario not in sc.name:
                continue
            idx = len(results)
            why = plan(sc)
            if why:
                results.append({"file": rel, "scenario": sc.name, "line": sc.line, "status": "na", "reason": why})
            else:
                results.append(None)
                jobs.append((idx, rel, sc))

    def work(job):
        idx, rel, sc = job
        try:
            return idx, ScenarioRunner(ctx, rel, sc).run()
        except Exception:
            return idx, {"file": rel, "scenario": sc.name, "line": sc.line, "status": "crash",
                         "error": traceback.format_exc()}

    crashed = []
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for idx, r in ex.map(work, jobs):
            results[idx] = r
            done += 1
            if r["status"] == "crash":
                crashed.append(r)
            if not args.quiet and sys.stderr.isatty():
                print("\rconformance: %d/%d scenarios" % (done, len(jobs)), end="", file=sys.stderr)
    if not args.quiet and sys.stderr.isatty():
        print(file=sys.stderr)
    seconds = round(time.monotonic() - t_start, 1)

    try:
        changed = tool_fingerprint(args.bin, profile, MAP_TOOLS + ("route-query",)) != all_tools_fp
    except OSError:
        changed = True
    if changed:
        print("conformance: warning: the tools in %s changed during the run; its results mix two builds "
              "(run it again)" % args.bin, file=sys.stderr)
    per_file, tot = tally(results)
    route_cats, turns_cats, na_reasons = categories(results)
    report = OrderedDict()
    report["generated"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    report["features"] = features
    report["osrmCommit"] = git_commit_of_features(features)
    report["seconds"] = seconds
    report["jobs"] = args.jobs
    report["toolsChangedDuringRun"] = changed
    report["builds"] = dict(ctx.builder.stats)
    report["toolSeconds"] = {k: round(v, 1) for k, v in ctx.builder.seconds.items()}
    report["totals"] = tot
    report["rates"] = {"route": rate(tot["route_pass"], tot["route_total"]),
                       "turns": rate(tot["turns_pass"], tot["turns_total"])}
    report["perFile"] = per_file
    report["failureCategories"] = {"route": route_cats.most_common(), "turns": turns_cats.most_common()}
    report["notApplicable"] = na_reasons.most_common()
    report["scenarios"] = results
    os.makedirs(args.out, exist_ok=True)
    partial = bool(args.filter or args.scenario)
    rpath = os.path.join(args.out, "report-partial.json" if partial else "report.json")
    tmp = rpath + ".tmp"
    with open(tmp, "w") as f:
        json.dump(report, f, indent=1)
    os.replace(tmp, rpath)

    write_failures(results, os.path.join(args.out, "failures-partial.txt" if partial else "failures.txt"))
    write_markdown(per_file, tot, route_cats, turns_cats, na_reasons, report,
                   os.path.join(args.out, "summary-partial.md" if partial else "summary.md"))
    print_table(per_file, tot)
    print("conformance: %.1f s on %d jobs (%d maps built, %d cached); report: %s"
          % (seconds, args.jobs, ctx.builder.stats["built"], ctx.builder.stats["cached"], os.path.relpath(rpath, REPO)))
    if not args.quiet:
        print("top failure categories, route cells:")
        for k, v in route_cats.most_common(12):
            print("  %5d  %s" % (v, k))
        print("top failure categories, turns cells:")
        for k, v in turns_cats.most_common(12):
            print("  %5d  %s" % (v, k))

    if crashed:
        for r in crashed[:5]:
            print("conformance: runner crash in %s: %s\n%s" % (r["file"], r["scenario"], r["error"]), file=sys.stderr)
        return 2

    rates = report["rates"]
    if args.update_ratchet:
        if partial or changed:
            print("conformance: not updating the ratchet from a %s" % (
                "partial run (--filter/--scenario)" if partial else "run whose tools changed under it"), file=sys.stderr)
            return 2
        rec = OrderedDict([
            ("osrmCommit", report["osrmCommit"]),
            ("route", OrderedDict([("pass", tot["route_pass"]), ("total", tot["route_total"]), ("rate", rates["route"])])),
            ("turns", OrderedDict([("pass", tot["turns_pass"]), ("total", tot["turns_total"]), ("rate", rates["turns"])])),
            ("updated", report["generated"]),
        ])
        with open(args.ratchet, "w") as f:
            json.dump(rec, f, indent=2)
            f.write("\n")
        print("conformance: ratchet updated: route %.4f, turns %.4f (%s)" % (rates["route"], rates["turns"],
                                                                             os.path.relpath(args.ratchet, REPO)))
        return 0
    if args.no_ratchet or partial:
        return 0
    if not os.path.exists(args.ratchet):
        print("conformance: no ratchet at %s (make conformance RATCHET=update writes one)" % args.ratchet)
        return 0
    with open(args.ratchet) as f:
        rec = json.load(f)
    failed = []
    for k in ("route", "turns"):
        want = rec.get(k, {}).get("rate", 0.0)
        if rates[k] + 1e-9 < want:
            failed.append("%s cells %.4f < %.4f recorded (%d/%d now, %d/%d recorded)"
                          % (k, rates[k], want, tot[k + "_pass"], tot[k + "_total"], rec[k].get("pass", 0),
                             rec[k].get("total", 0)))
    if failed:
        for m in failed:
            print("conformance: FAIL: ratchet: " + m)
        return 1
    better = [k for k in ("route", "turns") if rates[k] > rec.get(k, {}).get("rate", 0.0) + 1e-9]
    print("conformance: ratchet ok (route %.4f >= %.4f, turns %.4f >= %.4f)%s"
          % (rates["route"], rec["route"]["rate"], rates["turns"], rec["turns"]["rate"],
             "; rates improved: make conformance RATCHET=update records them" if better else ""))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
