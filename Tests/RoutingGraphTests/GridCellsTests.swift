import ContractionHierarchy
import XCTest
@testable import RoutingGraph
import TestSupport

/// The grid's offsets stored for the cells with roads only give back every cell's entries.
final class GridCellsTests: XCTestCase {
    func testEveryCellsEntriesComeBack() {
        var rng = SplitMix64(seed: 30)
        for cells in [1, 31, 32, 33, 1000, 4099] {
            for share in [0.0, 0.28, 1.0] {
                var cellFirst: [UInt32] = [0]
                for _ in 0..<cells { cellFirst.append(cellFirst.last! + (rng.chance(share) ? UInt32(1 + rng.below(9)) : 0)) }
                let (index, first) = GridCells.compact(cellFirst)
                XCTAssertEqual(first.count, (0..<cells).filter { cellFirst[$0] != cellFirst[$0 + 1] }.count + 1)
                XCTAssertNil(index.withUnsafeBufferPointer {
                    FlagWords.problem($0, slots: cells, values: first.count - 1, names: ("cell", "cells with roads", "cell offsets"))
                })
                index.withUnsafeBufferPointer { index in
                    first.withUnsafeBufferPointer { first in
                        let stored = GridCells(index: index, first: first)
                        for c in 0..<cells where Array(stored.entries(c)) != Array(Int(cellFirst[c])..<Int(cellFirst[c + 1])) {
                            XCTFail("\(cells) cells, \(share) with roads: cell \(c) has \(stored.entries(c))")
                        }
                    }
                }
            }
        }
    }
}
