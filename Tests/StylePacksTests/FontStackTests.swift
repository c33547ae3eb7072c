import Foundation
import OffgridCore
@testable import StylePacks
import XCTest

final class FontStackTests: XCTestCase {
    /// Every kind of `text-font` value the collector recognises, in one hand-written style.
    static let style = #"""
    {
      "version": 8, "name": "Expressions", "glyphs": "glyphs/{fontstack}/{range}.pbf",
      "sources": {"s": {"type": "vector", "url": "mbtiles://x"}},
      "layers": [
        {"id": "plain", "type": "symbol", "source": "s", "layout": {"text-field": "x", "text-font": ["Plain A", "Plain B"]}},
        {"id": "literal", "type": "symbol", "source": "s", "layout": {"text-font": ["literal", ["Literal"]]}},
        {"id": "step", "type": "symbol", "source": "s", "layout": {"text-font":
          ["step", ["zoom"], ["literal", ["Step 0"]], 10, ["literal", ["Step 10"]], 14, ["literal", ["Step 14"]]]}},
        {"id": "match", "type": "symbol", "source": "s", "layout": {"text-font":
          ["match", ["get", "class"], ["label one", "label two"], ["literal", ["Match A"]],
                    "single label", ["literal", ["Match B"]], ["literal", ["Match Fallback"]]]}},
        {"id": "case", "type": "symbol", "source": "s", "layout": {"text-font":
          ["case", ["==", ["get", "x"], 1], ["literal", ["Case A"]],
                   ["has", "y"], ["coalesce", ["literal", ["Coalesce A"]], ["literal", ["Coalesce B"]]],
                   ["literal", ["Case Fallback"]]]}},
        {"id": "nested", "type": "symbol", "source": "s", "layout": {"text-font":
          ["step", ["zoom"],
            ["match", ["get", "k"], "a", ["literal", ["Nested Match"]],
                                    ["case", ["has", "z"], ["literal", ["Nested Case"]], ["literal", ["Nested Fallback"]]]],
            12, ["literal", ["Step 0"]],
            14, ["Bare Array"]]}},
        {"id": "let", "type": "symbol", "source": "s", "layout": {"text-font":
          ["let", "f", ["literal", ["Let Bound"]], "n", 3, ["var", "f"]]}},
        {"id": "array", "type": "symbol", "source": "s", "layout": {"text-font": ["array", "string", ["literal", ["Array Asserted"]]]}},
        {"id": "zoom-function", "type": "symbol", "source": "s", "layout": {"text-font":
          {"stops": [[5, ["Function 5"]], [10, ["Function 10"]]]}}},
        {"id": "property-function", "type": "symbol", "source": "s", "layout": {"text-font":
          {"property": "kind", "type": "categorical", "stops": [["a", ["Category A"]], [{"zoom": 3, "value": "b"}, ["Category B"]]],
           "default": ["Category Default"]}}},
        {"id": "format", "type": "symbol", "source": "s", "layout": {
          "text-field": ["case", ["has", "ref"],
                         ["format", ["get", "ref"], {"text-font": ["literal", ["Format Section"]], "font-scale": 0.8},
                                    "\n", {}, ["get", "name"], {"text-font": ["step", ["zoom"], ["literal", ["Format Step"]], 9, ["literal", ["Plain A", "Plain B"]]]}],
                         ["get", "name"]],
          "text-font": ["Plain A", "Plain B"]}},
        {"id": "default-font", "type": "symbol", "source": "s", "layout": {"text-field": ["get", "name"]}},
        {"id": "data", "type": "symbol", "source": "s", "layout": {"text-field": "x", "text-font": ["coalesce", ["get", "font"], ["literal", ["After Data"]]]}},
        {"id": "icons-only", "type": "symbol", "source": "s", "layout": {"icon-image": "dot"}},
        {"id": "roads", "type": "line", "source": "s", "paint": {"line-color": "#000"}}
      ]
    }
    """#

    func testFontStacksAreCollectedFromExpressions() throws {
        let doc = try StyleDocument(bytes: Array(Self.style.utf8), file: "expressions.json")
        XCTAssertEqual(Set(doc.fontStackKeys), [
            "Plain A,Plain B", "Literal", "Step 0", "Step 10", "Step 14",
            "Match A", "Match B", "Match Fallback",
            "Case A", "Coalesce A", "Coalesce B", "Case Fallback",
            "Nested Match", "Nested Case", "Nested Fallback", "Bare Array",
            "Let Bound", "Array Asserted",
            "Function 5", "Function 10", "Category A", "Category B", "Category Default",
            "Format Section", "Format Step",
            "Open Sans Regular,Arial Unicode MS Regular",
            "After Data",
        ])
        // Sorted by UTF-8 bytes, no duplicates ("Step 0" and "Plain A,Plain B" appear twice).
        XCTAssertEqual(doc.fontStackKeys, doc.fontStackKeys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(doc.fontStacks.count, 27)
        // match labels are never font stacks.
        XCTAssertFalse(doc.fontStackKeys.contains { $0.contains("label") })
        // The data-dependent part is reported, the rest of that expression still collected.
        XCTAssertEqual(doc.unresolvedFonts, [#"layer "data": text-font ["get", "font"] depends on data; its fonts are not packed"#])
    }

    func testStackNamesKeepTheirOrderAndJoinWithCommas() throws {
        var c = FontStackCollector()
        c.walk(["literal", ["B", "A"]] as JSONValue, layer: "l", what: "text-font")
        c.walk(["A", "B"] as JSONValue, layer: "l", what: "text-font")
        c.walk(["literal", ["B", "A"]] as JSONValue, layer: "l", what: "text-font")
        XCTAssertEqual(c.stacks, [["B", "A"], ["A", "B"]])
        XCTAssertEqual(c.unresolved, [])
    }

    func testOperatorLikeArraysAreExpressionsNotFonts() throws {
        var c = FontStackCollector()
        c.walk(["get", "font"] as JSONValue, layer: "l", what: "text-font")
        c.walk(["to-string", ["get", "f"]] as JSONValue, layer: "l", what: "text-font")
        c.walk("Not An Array", layer: "l", what: "text-font")
        XCTAssertEqual(c.stacks, [])
        XCTAssertEqual(c.unresolved.count, 3)
    }

    func testMissingRangeNamesTheFirstStackInSortedOrder() throws {
        let dir = try temporaryDirectory(self)
        try write(Self.style, to: dir + "/style.json")
        assertThrows(["glyph range \"After Data/0-255.pbf\" missing in \(dir)/glyphs", "(and 6911 more missing resources)"]) {
            _ = try StylePackBuilder.plan(style: dir + "/style.json", resources: dir, options: StylePackOptions())
        }
    }
}
