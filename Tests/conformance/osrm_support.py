"""OSRM's cucumber support code (support-js/ of the features directory), in Python.

Each function names the JavaScript it follows. What matters for the scores:

- coordinates: `tableCoordToLonLat` / `offsetOriginBy` with cheap-ruler (v4, WGS84) at the origin's
  latitude; a node map character at row r, column c is offset (c / 2, -r) grid cells;
- the OSM data: nodes (tag name=<letter>), ways (highway=primary unless given, name=<node letters>
  unless given, '(nil)' deletes, '""' is an empty name, empty cells are empty-valued tags),
  relations (node:role / way:role / relation:role members), ids from one counter, every object
  user osrm, uid 1, version 1, timestamp 2000-01-01T00:00:00Z;
- `routability should be`: one 5-node way per row, WAY_SPACING (100) cells apart, queried from
  cell 1 to cell 3 (forw) and back (backw);
- the `route` / `turns` columns (`wayList`, `turnList`) and FuzzyMatch.
"""

import math
import re
from decimal import Decimal
from xml.sax.saxutils import quoteattr

OSM_USER = "osrm"
OSM_UID = 1
OSM_TIMESTAMP = "2000-01-01T00:00:00Z"
WAY_SPACING = 100
DEFAULT_GRID_SIZE = 100
DEFAULT_ORIGIN = (1.0, 1.0)
DEFAULT_PROFILE = "bicycle"


# --------------------------------------------------------------------------------------------
# JavaScript number semantics

def js_num(x) -> str:
    """Number.prototype.toString for a double (shortest round trip, JS exponent rules)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign, digits, exp = Decimal(repr(x)).as_tuple()
    digits = list(digits)
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
        exp += 1
    k = len(digits)
    n = exp + k
    s = "".join(map(str, digits))
    if k <= n <= 21:
        out = s + "0" * (n - k)
    elif 0 < n <= 21:
        out = s[:n] + "." + s[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + s
    else:
        e = n - 1
        out = s[0] + ("." + s[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))
    return ("-" if sign else "") + out


def js_str(v) -> str:
    """String(v) / template literal for the values the support code formats."""
    if v is None:
        return "undefined"
    if isinstance(v, float) or isinstance(v, int):
        return js_num(v)
    return str(v)


_FLOAT_PREFIX = re.compile(r"^[\t\n\v\f\r \u00a0\ufeff]*([+-]?(?:Infinity|(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)))")


def js_parse_float(v) -> float:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    if v is None:
        return float("nan")
    m = _FLOAT_PREFIX.match(str(v))
    if not m:
        return float("nan")
    t = m.group(1)
    if "Infinity" in t:
        return float("-inf") if t.startswith("-") else float("inf")
    return float(t)


def js_round(x: float) -> float:
    """Math.round: halves toward +infinity."""
    return math.floor(x + 0.5)


def ensure_decimal(i):
    """lib/utils.js ensureDecimal: integers as '1.0', anything else unchanged."""
    if isinstance(i, str):
        # parseInt(string) === string is always false
        return i
    if float(i).is_integer():
        return "%.1f" % i  # toFixed(1)
    return i


def coord_str(v) -> str:
    v = ensure_decimal(v)
    return v if isinstance(v, str) else js_num(v)


# --------------------------------------------------------------------------------------------
# cheap-ruler (v4): offsets in metres at a latitude

class CheapRuler:
    RE = 6378.137
    FE = 1 / 298.257223563
    E2 = FE * (2 - FE)
    RAD = math.pi / 180

    def __init__(self, lat: float):
        m = self.RAD * self.RE * 1000.0  # metres
        coslat = math.cos(lat * self.RAD)
        w2 = 1 / (1 - self.E2 * (1 - coslat * coslat))
        w = math.sqrt(w2)
        self.kx = m * w * coslat
        self.ky = m * w * w2 * (1 - self.E2)

    def offset(self, p, dx, dy):
        return (p[0] + dx / self.kx, p[1] + dy / self.ky)


# --------------------------------------------------------------------------------------------
# FuzzyMatch (support/data_classes.js)

class FuzzyMatch:
    @staticmethod
    def _in_range(margin, got, want):
        w = js_parse_float(want)
        g = js_parse_float(got)
        return w - margin <= g <= w + margin

    @classmethod
    def match(cls, got, want: str) -> bool:
        if want == "" and (got == "" or got is None):
            return True
        if got is None:
            return False
        got = got if isinstance(got, str) else js_str(got)
        if got == want:
            return True
        m_pct = re.match(r"^(.*)\s+~(.+)%$", want, re.S)
        m_abs = re.match(r"^(.*)\s+\+-(.+)$", want, re.S)
        m_re = re.match(r"^/(.*)/$", want, re.S)
        m_bearings = re.match(r"^((\d+)->(\d+))(,(\d+)->(\d+))*\s+\+-(.+)$", want)
        m_inter = re.match(r"^(((((true|false):\d+)\s{0,1})+,{0,1})+;{0,1})+\s+\+-(.+)$", want)
        m_range = re.search(r"\d+\+-\d+", want)
        if m_bearings:
            want_part, margin = want.split("+-")[0], js_parse_float(want.split("+-")[1].strip())
            want_pairs = [p.split("->") for p in want_part.strip().split(",")]
            got_pairs = [p.split("->") for p in got.split(",")]
            if len(want_pairs) != len(got_pairs):
                return False
            for w, g in zip(want_pairs, got_pairs):
                if len(g) < 2 or not cls._in_range(margin, g[0], w[0]) or not cls._in_range(margin, g[1], w[1]):
                    return False
            return True
        if m_inter:
            margin = js_parse_float(want.split("+-")[1])

            def parse(s):
                return [[[p.split(":") for p in inter.split(" ")] for inter in turn.split(",")] for turn in s.split(";")]
            wi, gi = parse(want.split("+-")[0].strip()), parse(got)
            if len(wi) != len(gi):
                return False
            for ws, gs in zip(wi, gi):
                if len(ws) != len(gs):
                    return False
                for wx, gx in zip(ws, gs):
                    if len(wx) != len(gx):
                        return False
                    for wp, gp in zip(wx, gx):
                        if gp[0] != wp[0] or len(gp) < 2 or len(wp) < 2 or not cls._in_range(margin, gp[1], wp[1]):
                            return False
            return True
        if m_pct:
            target = js_parse_float(m_pct.group(1))
            pct = js_parse_float(m_pct.group(2))
            if target == 0:
                return True
            ratio = abs(1 - js_parse_float(got) / target)
            return 100 * ratio < pct
        if m_abs:
            return cls._in_range(js_parse_float(m_abs.group(2)), got, m_abs.group(1))
        if m_re:
            try:
                return re.search(m_re.group(1), got) is not None
            except re.error:
                return False
        if m_range:
            parts = want.split("+-")
            return cls._in_range(js_parse_float(parts[1].strip()), got, js_parse_float(parts[0].strip()))
        return False


def unescape_cell(s: str) -> str:
    """lib/table_diff.js unescapeStr, applied to expected cells before comparing."""
    return s.replace("\\|", "|").replace("\\\\", "\\")


def cell_matches(got, want: str) -> bool:
    """What processRowsAndDiff decides for one cell: FuzzyMatch replaces got by want, then
    tableDiff compares unescaped want with got."""
    if FuzzyMatch.match(got, want):
        return True
    return unescape_cell(want) == (got if isinstance(got, str) else js_str(got))


# --------------------------------------------------------------------------------------------
# The response lists (support/route.js)

def _steps(route):
    out = []
    for leg in route.get("legs", []):
        out.extend(leg.get("steps", []) or [])
    return out


def way_list(route) -> str:
    return ",".join(js_str(s.get("name")) for s in _steps(route))


def turn_list(route) -> str:
    out = []
    for v in _steps(route):
        man = v.get("maneuver", {})
        t = man.get("type")
        mod = js_str(man.get("modifier"))
        ex = js_str(man.get("exit"))
        if t in ("depart", "arrive"):
            out.append(t)
        elif t in ("on ramp", "off ramp"):
            out.append("%s %s" % (t, mod))
        elif t == "roundabout":
            out.append("roundabout-exit-%s" % ex)
        elif t == "rotary":
            if "rotary_name" in v:
                out.append("%s-exit-%s" % (v["rotary_name"], ex))
            else:
                out.append("rotary-exit-%s" % ex)
        elif t == "roundabout turn":
            out.append("%s %s exit-%s" % (t, mod, ex))
        else:
            out.append("%s %s" % (js_str(t), mod))
    return ",".join(out)


def mode_list(route) -> str:
    return ",".join(js_str(s.get("mode")) for s in _steps(route))


def summary_steps(route):
    """A compact view of a route for the report."""
    out = []
    for s in _steps(route):
        man = s.get("maneuver", {})
        d = {"name": s.get("name"), "type": man.get("type")}
        if "modifier" in man:
            d["modifier"] = man["modifier"]
        if "exit" in man:
            d["exit"] = man["exit"]
        if s.get("ref"):
            d["ref"] = s["ref"]
        d["distance"] = s.get("distance")
        d["duration"] = s.get("duration")
        out.append(d)
    return out


# --------------------------------------------------------------------------------------------
# The OSM data (lib/osm.js, support/data.js, step_definitions/data.js)

class StepError(Exception):
    """A step the support code would reject (OSRM's run fails with this message)."""


class Node:
    __slots__ = ("id", "lon", "lat", "tags")

    def __init__(self, id, lon, lat, tags):
        self.id, self.lon, self.lat, self.tags = id, lon, lat, tags


class Location:
    __slots__ = ("lon", "lat")

    def __init__(self, lon, lat):
        self.lon, self.lat = lon, lat


class Way:
    def __init__(self, id):
        self.id = id
        self.nodes = []
        self.tags = {}


class Relation:
    def __init__(self, id):
        self.id = id
        self.members = []
        self.tags = {}


class World:
    """One scenario's state, as OSRMWorld.setupCurrentScenario leaves it."""

    def __init__(self):
        self.profile = None
        self.set_grid_size(DEFAULT_GRID_SIZE)
        self.set_origin(DEFAULT_ORIGIN)
        self.query_params = {}
        self.nodes, self.ways, self.relations = [], [], []
        self.name_node, self.id_node, self.locations = {}, {}, {}
        self.shortcuts, self.name_way, self.name_relation = {}, {}, {}
        self.osm_id = 0

    # data.js
    def set_grid_size(self, meters):
        self.grid_size = float(meters)
        self.zoom = self.grid_size * 0.8990679362704610899694577444566908445396483347536032203503e-5

    def set_origin(self, origin):
        self.origin = (float(origin[0]), float(origin[1]))
        self.ruler = CheapRuler(self.origin[1])

    def offset_origin_by(self, x_cells, y_cells):
        return self.ruler.offset(self.origin, x_cells * self.grid_size, y_cells * self.grid_size)

    def table_coord_to_lon_lat(self, ci, ri):
        return [ensure_decimal(v) for v in self.offset_origin_by(ci, -ri)]

    def make_id(self):
        self.osm_id += 1
        return self.osm_id

    def add_osm_node(self, name, lon, lat, id=None):
        id = id or self.make_id()
        node = Node(id, lon, lat, {"name": name})
        self.nodes.append(node)
        self.name_node[name] = node
        self.id_node[str(id)] = node

    def find_node_by_name(self, s):
        if len(s) != 1:
            raise StepError('*** invalid node name "%s", must be single characters' % s)
        if not re.match(r"[a-z0-9]", s):
            raise StepError('*** invalid node name "%s", must be alphanumeric' % s)
        if re.match(r"[a-z]", s):
            return self.name_node.get(s)
        return self.locations.get(s)

    def find_way_by_name(self, s):
        return self.name_way.get(s) or self.name_way.get(s[::-1])

    def find_relation_by_name(self, s):
        return self.name_relation.get(s) or self.name_relation.get(s[::-1])

    # step_definitions/data.js
    def node_map(self, docstring):
        for ri, row in enumerate(docstring.split("\n")):
            for ci, cell in enumerate(row):
                if re.match(r"[a-z0-9]", cell):
                    lon, lat = self.table_coord_to_lon_lat(ci * 0.5, ri)
                    if re.match(r"[a-z]", cell):
                        if cell in self.name_node:
                            raise StepError("*** duplicate node %s" % cell)
                        self.add_osm_node(cell, lon, lat)
                    else:
                        if cell in self.locations:
                            raise StepError("*** duplicate node %s" % cell)
                        self.locations[cell] = Location(lon, lat)

    def node_locations(self, rows):
        for row in rows:
            name = row["node"]
            if self.find_node_by_name(name):
                raise StepError("*** duplicate node %s" % name)
            if re.match(r"[a-z]", name):
                id = int(row["id"]) if row.get("id") else None
                self.add_osm_node(name, row["lon"], row["lat"], id)
            else:
                self.locations[name] = Location(row["lon"], row["lat"])

    def nodes_table(self, rows):
        for row in rows:
            row = dict(row)
            name = row.pop("node")
            node = self.find_node_by_name(name)
            if not node or isinstance(node, Location):
                raise StepError("*** unknown node %s" % name)
            for k, v in row.items():
                if k == "id":
                    node.id = v
                else:
                    node.tags[k] = v

    def ways_table(self, rows):
        for row in rows:
            way = Way(self.make_id())
            nodes = row["nodes"]
            for c in nodes:
                if not re.match(r"[a-z]", c):
                    raise StepError("*** ways can only use names a-z (%s)" % c)
                node = self.find_node_by_name(c)
                if not node:
                    raise StepError("*** unknown node %s" % c)
                way.nodes.append(node)
            tags = {"highway": "primary"}
            for k, v in row.items():
                tags[k] = v
            tags.pop("nodes", None)
            if row.get("highway") == "(nil)":
                tags.pop("highway", None)
            if "name" not in row:
                tags["name"] = nodes
            elif row["name"] in ('""', "''"):
                tags["name"] = ""
            elif row["name"] in ("", "(nil)"):
                tags.pop("name", None)
            else:
                tags["name"] = row["name"]
            way.tags = tags
            self.ways.append(way)
            self.name_way[nodes] = way

    def relations_table(self, table):
        headers = table[0]
        for row in table[1:]:
            rel = Relation(self.make_id())
            name = None
            for key, value in zip(headers, row):
                is_node = re.match(r"^node:?(.*)", key)
                is_way = re.match(r"^way:?(.*)", key)
                is_rel = re.match(r"^relation:?(.*)", key)
                is_colon = re.match(r"^(.*):(.*)", key)
                if is_node:
                    for n in (v.strip() for v in value.split(",")):
                        if len(n) != 1:
                            raise StepError('*** invalid relation node member "%s"' % n)
                        node = self.find_node_by_name(n)
                        if not node or isinstance(node, Location):
                            raise StepError('*** unknown relation node member "%s"' % n)
                        rel.members.append(("node", node.id, is_node.group(1)))
                elif is_way:
                    for w in (v.strip() for v in value.split(",")):
                        way = self.find_way_by_name(w)
                        if not way:
                            raise StepError('*** unknown relation way member "%s"' % w)
                        rel.members.append(("way", way.id, is_way.group(1)))
                elif is_rel:
                    for r in (v.strip() for v in value.split(",")):
                        other = self.find_relation_by_name(r)
                        if not other:
                            raise StepError('*** unknown relation relation member "%s"' % r)
                        rel.members.append(("relation", other.id, is_rel.group(1)))
                elif is_colon and is_colon.group(1) != "restriction":
                    raise StepError('*** unknown relation member type "%s:%s"' % (is_colon.group(1), is_colon.group(2)))
                else:
                    rel.tags[key] = value
                    if re.search("name", key):
                        name = value
            if name:
                self.name_relation[name] = rel
            self.relations.append(rel)

    def remove_node(self, name):
        node = self.find_node_by_name(name)
        if not node:
            raise StepError("*** unknown node %s" % name)
        self.nodes = [n for n in self.nodes if str(n.id) != str(node.id)]

    # support/data.js buildWaysFromTable (routability)
    def build_ways_from_table(self, rows):
        for ri, row in enumerate(rows):
            nodes = []
            for i, l in enumerate("abcde"):
                lon, lat = self.offset_origin_by(i + WAY_SPACING * ri, 0)
                nodes.append(Node(self.make_id(), lon, lat, {"name": "%s%d" % (l, ri)}))
            self.nodes.extend(nodes)
            way = Way(self.make_id())
            way.nodes = list(nodes)
            tags = {k: v for k, v in row.items()
                    if not re.match(r"^forw\b", k) and not re.match(r"^backw\b", k)
                    and not re.match(r"^bothw\b", k) and len(v)}
            way_tags = {"highway": "primary"}
            node_tags = {}
            for k, v in tags.items():
                nm = re.search(r"node/(.*)", k)
                if nm:
                    if v == "(nil)":
                        node_tags.pop(k, None)
                    else:
                        node_tags[nm.group(1)] = v
                else:
                    if v == "(nil)":
                        way_tags.pop(k, None)
                    else:
                        way_tags[k] = v
            way_tags["name"] = "w%d" % ri
            way.tags = way_tags
            self.ways.append(way)
            for k, v in node_tags.items():
                nodes[2].tags[k] = v

    def routability_coords(self, i):
        a = self.offset_origin_by(1 + WAY_SPACING * i, 0)
        b = self.offset_origin_by(3 + WAY_SPACING * i, 0)
        return Location(a[0], a[1]), Location(b[0], b[1])

    # lib/osm.js toXML
    def to_xml(self) -> str:
        out = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm generator="osrm-test" version="0.6">']

        def tags(d):
            for k, v in d.items():
                out.append("    <tag k=%s v=%s/>" % (quoteattr(str(k)), quoteattr(str(v))))

        for n in self.nodes:
            attrs = 'id="%s" version="1" uid="%d" user="%s" timestamp="%s" lon="%s" lat="%s"' % (
                n.id, OSM_UID, OSM_USER, OSM_TIMESTAMP, coord_str(n.lon), coord_str(n.lat))
            if n.tags:
                out.append("  <node %s>" % attrs)
                tags(n.tags)
                out.append("  </node>")
            else:
                out.append("  <node %s/>" % attrs)
        for w in self.ways:
            out.append('  <way id="%s" version="1" uid="%d" user="%s" timestamp="%s">' % (
                w.id, OSM_UID, OSM_USER, OSM_TIMESTAMP))
            for n in w.nodes:
                out.append('    <nd ref="%s"/>' % n.id)
            tags(w.tags)
            out.append("  </way>")
        for r in self.relations:
            out.append('  <relation id="%s" version="1" user="%s" timestamp="%s" uid="%d">' % (
                r.id, OSM_USER, OSM_TIMESTAMP, OSM_UID))
            for (t, ref, role) in r.members:
                out.append('    <member type="%s" ref="%s" role=%s/>' % (t, ref, quoteattr(role or "")))
            tags(r.tags)
            out.append("  </relation>")
        out.append("</osm>")
        return "\n".join(out) + "\n"
