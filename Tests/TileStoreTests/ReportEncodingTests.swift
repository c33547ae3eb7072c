import OffgridCore
@testable import TileStore
import TestSupport
import XCTest

/// Reports keep the store's JSON schema: fields without a value print as null (not left out),
/// optional sections are left out, kinds print as their index names.
final class ReportEncodingTests: XCTestCase {
    private func summary(quota: Int64?) -> StoreSummary {
        StoreSummary(bytes: 10, files: 1, evictableBytes: 0, evictableFiles: 0, mapPacks: 1, mapPacksInRegions: 1,
                     quota: quota, evictionThreshold: quota.map { max(0, $0 - evictionMargin) }, regions: 1, styles: 0)
    }

    func testMissingValuesPrintAsNull() throws {
        let none = try JSONEncoding.value(summary(quota: nil))
        XCTAssertEqual(none["quota"], .null)
        XCTAssertEqual(none["evictionThreshold"], .null)
        let set = try JSONEncoding.value(summary(quota: 60_000_000))
        XCTAssertEqual(set["quota"], .int(60_000_000))
        XCTAssertEqual(set["evictionThreshold"], .int(10_000_000))
        XCTAssertTrue(try JSONEncoding.string(summary(quota: nil), pretty: true).contains("\"quota\" : null"))
    }

    func testEvictedObjectsAndOptionalSections() throws {
        let evicted = EvictedObject(sha256: String(repeating: "a", count: 64), kind: .styleResource, bytes: 5, expiresAt: nil)
        let report = EvictReport(evicted: [evicted], evictedFiles: 1, evictedBytes: 5, orphansRemoved: 0, quota: nil,
                                 evictionThreshold: nil, store: summary(quota: nil))
        let value = try JSONEncoding.value(report)
        XCTAssertEqual(value["evicted"]?.arrayValue?.first?["kind"], "style-resource")
        XCTAssertEqual(value["evicted"]?.arrayValue?.first?["expires"], .null)
        let wiped = QuotaReport(quota: 0, wiped: true, regionsRemoved: 2, stylesRemoved: 0, filesRemoved: 3, bytesFreed: 9,
                                evicted: EvictionTotals(files: 3, bytes: 9), store: summary(quota: 0))
        let w = try JSONEncoding.value(wiped)
        XCTAssertNil(w["overQuota"], "only a quota that was not a wipe says whether the store is over it")
        XCTAssertEqual(w["regionsRemoved"], 2)
        let set = QuotaReport(quota: 100, wiped: false, evicted: EvictionTotals(files: 0, bytes: 0), overQuota: false,
                              store: summary(quota: 100))
        XCTAssertNil(try JSONEncoding.value(set)["regionsRemoved"])
    }
}
