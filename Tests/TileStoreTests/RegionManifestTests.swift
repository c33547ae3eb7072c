import OffgridCore
import Foundation
@testable import TileStore
import TestSupport
import XCTest

/// region.json is read with the exact JSON reader: coordinates keep every digit, and a broken
/// manifest is a one-line error naming the file, with nothing installed.
final class RegionManifestTests: XCTestCase {
    var scratch: Scratch!
    var store: String { scratch.path("store") }
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    private var manifestPath: String { scratch.path("a/region.json") }

    private func rewriteManifest(_ change: (String) -> String) throws {
        let text = try String(contentsOfFile: manifestPath, encoding: .utf8)
        try change(text).write(toFile: manifestPath, atomically: true, encoding: .utf8)
    }

    func testCoordinatesKeepEveryDigit() throws {
        try makeRegion(scratch.path("a"), id: "a", packs: [.at(0)])
        // JSONSerialization on Linux reads this as 47.12301359272549.
        try rewriteManifest { $0.replacingOccurrences(of: "47.141", with: "47.123013592725506") }
        try withStore(store) { _ = try $0.installRegion(directory: scratch.path("a")) }
        let shown = try withStore(store, access: .read) { try $0.region(id: "a") }
        let point = shown.geometry["features"]?.arrayValue?.first?["geometry"]?["coordinates"]?.arrayValue
        XCTAssertEqual(point?.last, .double(47.123013592725506))
        XCTAssertTrue(try JSONEncoding.string(shown).contains("47.123013592725506"))
    }

    func testBrokenManifestsAreRefusedNamingTheFile() throws {
        try makeRegion(scratch.path("a"), id: "a", packs: [.at(0)])
        try rewriteManifest { String($0.dropLast(10)) }
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("a")) },
                               contains: "invalid JSON")
        try "[1, 2]".write(toFile: manifestPath, atomically: true, encoding: .utf8)
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("a")) },
                               contains: "not a JSON object")
        try makeRegion(scratch.path("a"), id: "a", packs: [.at(0)])
        try rewriteManifest { $0.replacingOccurrences(of: "\"expires\":null", with: "\"expires\":true") }
        assertThrowsInputError(try withStore(self.store) { try $0.installRegion(directory: self.scratch.path("a")) },
                               contains: "expires must be a date string or null")
        let summary = try withStore(store, access: .read) { try $0.summary() }
        XCTAssertEqual(summary.regions, 0)
        XCTAssertEqual(summary.files, 0)
    }
}
