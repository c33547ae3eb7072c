"""Checks of the runner's translation of OSRM's support code: python3 -m unittest discover Tests/conformance"""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gherkin  # noqa: E402
from osrm_support import FuzzyMatch, World, cell_matches, js_num, turn_list, way_list  # noqa: E402


class JSNumbers(unittest.TestCase):
    def test_to_string(self):
        self.assertEqual(js_num(12.0), "12")
        self.assertEqual(js_num(12.5), "12.5")
        self.assertEqual(js_num(0.000001), "0.000001")
        self.assertEqual(js_num(1e-7), "1e-7")
        self.assertEqual(js_num(1e21), "1e+21")
        self.assertEqual(js_num(123456789012345680000.0), "123456789012345680000")


class Fuzzy(unittest.TestCase):
    def test_forms(self):
        m = FuzzyMatch.match
        self.assertTrue(m("9.5s", "10s +-1"))
        self.assertFalse(m("12s", "10s +-1"))
        self.assertTrue(m("104m", "100m ~5%"))
        self.assertFalse(m("106m", "100m ~5%"))
        self.assertTrue(m("ab,cd", "/ab,.*/"))
        self.assertTrue(m("", ""))
        self.assertTrue(m(None, ""))
        self.assertTrue(m("10->90,270->0", "11->89,271->1 +-2"))

    def test_unescape(self):
        self.assertTrue(cell_matches("a|b", "a\\|b"))


class Responses(unittest.TestCase):
    def test_lists(self):
        route = {"legs": [{"steps": [
            {"name": "ab", "maneuver": {"type": "depart"}},
            {"name": "bc", "maneuver": {"type": "roundabout", "modifier": "right", "exit": 2}},
            {"name": "cd", "maneuver": {"type": "roundabout"}},
            {"name": "de", "maneuver": {"type": "rotary", "exit": 1}, "rotary_name": "circle"},
            {"name": "ef", "maneuver": {"type": "off ramp", "modifier": "slight right"}},
            {"name": "fg", "maneuver": {"type": "roundabout turn", "modifier": "left", "exit": 1}},
            {"name": "gh", "maneuver": {"type": "new name"}},
            {"name": "gh", "maneuver": {"type": "arrive"}}]}]}
        self.assertEqual(way_list(route), "ab,bc,cd,de,ef,fg,gh,gh")
        self.assertEqual(turn_list(route), "depart,roundabout-exit-2,roundabout-exit-undefined,circle-exit-1,"
                                           "off ramp slight right,roundabout turn left exit-1,new name undefined,arrive")


class Data(unittest.TestCase):
    def test_node_map_and_ways(self):
        w = World()
        w.node_map("a b\n  c 1")
        self.assertEqual([n.tags["name"] for n in w.nodes], ["a", "b", "c"])
        self.assertEqual(w.nodes[0].lon, "1.0")  # ensureDecimal
        self.assertAlmostEqual(float(w.nodes[1].lon), 1.0008984512, places=9)  # one cell = 100 m
        self.assertAlmostEqual(float(w.nodes[2].lat), 0.9990956333, places=9)
        w.ways_table([{"nodes": "ab"}, {"nodes": "bc", "highway": "(nil)", "name": ""}])
        self.assertEqual(w.ways[0].tags, {"highway": "primary", "name": "ab"})
        self.assertEqual(w.ways[1].tags, {})
        self.assertEqual(w.ways[0].id, 4)
        w.relations_table([["type", "way:from", "way:to", "node:via", "restriction"],
                           ["restriction", "ab", "cb", "b", "no_left_turn"]])
        self.assertEqual(w.relations[0].members, [("way", 4, "from"), ("way", 5, "to"), ("node", 2, "via")])
        self.assertIn('<tag k="restriction" v="no_left_turn"/>', w.to_xml())

    def test_routability_ways(self):
        w = World()
        w.build_ways_from_table([{"highway": "primary", "node/barrier": "gate", "forw": "x"},
                                 {"highway": "footway", "forw": ""}])
        self.assertEqual(len(w.nodes), 10)
        self.assertEqual(w.ways[0].tags, {"highway": "primary", "name": "w0"})
        self.assertEqual(w.nodes[2].tags, {"name": "c0", "barrier": "gate"})
        self.assertAlmostEqual(w.nodes[5].lon - 1.0, 100 * 0.0008984512, places=6)


class Parser(unittest.TestCase):
    def test_feature(self):
        text = '''@routing
Feature: F
    Background:
        Given the profile "car"

    @todo
    Scenario: S
        Given the node map
            """
              a b
            c
            """
        And the ways
            | nodes | name  |
            | ab    | x\\|y  |

    Scenario Outline: O
        Then routability should be
            | highway | forw |
            | <h>     | x    |
        Examples:
            | h         |
            | primary   |
            | secondary |
'''
        with tempfile.NamedTemporaryFile("w", suffix=".feature", delete=False) as f:
            f.write(text)
        try:
            feat = gherkin.parse(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(len(feat.scenarios), 3)
        s = feat.scenarios[0]
        self.assertEqual(s.tags, ["@routing", "@todo"])
        self.assertEqual(s.background[0].text, 'the profile "car"')
        self.assertEqual(s.steps[0].docstring, "  a b\nc")
        self.assertEqual(s.steps[1].table, [["nodes", "name"], ["ab", "x|y"]])
        self.assertEqual(feat.scenarios[2].steps[0].table[1], ["secondary", "x"])


if __name__ == "__main__":
    unittest.main()
