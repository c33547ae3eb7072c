@testable import RouteQuery
import XCTest

/// The step name cache answers what the file holds, whatever was cached in the slot before.
final class StepStringsTests: XCTestCase {
    func testCachedStringsAreTheFilesAcrossEvictions() throws {
        let data = try RoutingData(path: try SampleGraphFixture.graphPath())
        let cache = StepStrings()
        // Every name and ref of the graph's edges, twice, in an order that keeps evicting slots
        // (ids 512 apart share one).
        var ids: [UInt32] = []
        for e in 0..<min(data.edges.count, 20_000) { ids.append(data.edges[e].name); ids.append(data.edges[e].ref) }
        let distinct = Set(ids)
        XCTAssertGreaterThan(distinct.count, 600, "enough distinct strings to collide in 512 slots")
        for id in ids + ids.reversed() {
            XCTAssertEqual(cache.string(id, in: data), data.string(id), "string \(id)")
        }
        XCTAssertEqual(cache.string(0, in: data), "")
    }
}
