import Foundation
import OffgridCore
import RoutingGraph
import TestSupport
import XCTest

/// A graph header's u64 sizes and offsets past `Int.max`: converting them unchecked trapped the
/// process (SIGILL) instead of refusing the file. Found by the graph fuzz target (docs/TESTING.md);
/// the inputs below are the smallest headers that reach each conversion, with valid header CRCs.
final class GraphFileHeaderSizeTests: XCTestCase {
    /// A header of `sections` table entries (id, offset, length), everything else well formed:
    /// magic, version, header CRC, scalars all zero, four short strings.
    private func header(declaredSize: UInt64?, sections: [(id: UInt32, offset: UInt64, length: UInt64)]) -> [UInt8] {
        var w = ByteWriter(capacity: 512)
        w.append(contentsOf: GraphFileFormat.magic)
        w.u32(GraphFileFormat.version)
        w.u32(0)  // header length, patched below
        w.u32(0)  // header CRC, patched below
        w.u32(UInt32(sections.count))
        w.u64(0)  // file size, patched below
        for _ in GraphFileFormat.Scalar.allCases { w.u64(0) }
        for s in ["2026-01-01", "car", "0", "car"] { w.u32(UInt32(s.utf8.count)); w.append(contentsOf: Array(s.utf8)) }
        for s in sections {
            w.u32(s.id); w.u32(4); w.u64(s.offset); w.u64(s.length); w.u32(0); w.u32(0)
        }
        var b = w.bytes
        while b.count % GraphFileFormat.alignment != 0 { b.append(0) }
        func put32(_ v: UInt32, at: Int) { withUnsafeBytes(of: v.littleEndian) { for k in 0..<4 { b[at + k] = $0[k] } } }
        func put64(_ v: UInt64, at: Int) { withUnsafeBytes(of: v.littleEndian) { for k in 0..<8 { b[at + k] = $0[k] } } }
        put32(UInt32(b.count), at: 12)
        put64(declaredSize ?? UInt64(b.count), at: 24)
        put32(CRC32.checksum(b[20...]), at: 16)
        return b
    }

    private func assertRefused(_ bytes: [UInt8], _ expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-header-size-\(getpid())-\(line).chg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try GraphFile(path: path), file: file, line: line) { error in
            XCTAssertTrue(error is InputError, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".hasPrefix(path + " at byte "), "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(expected), "\(error)", file: file, line: line)
            XCTAssertFalse("\(error)".contains("\n"), file: file, line: line)
        }
    }

    func testFileSizePastIntMaxIsRefused() throws {
        try assertRefused(header(declaredSize: UInt64.max, sections: []), "file size 18446744073709551615 is past any file size")
        try assertRefused(header(declaredSize: 1 << 63, sections: []), "file size 9223372036854775808 is past any file size")
    }

    func testSectionOffsetAndLengthPastIntMaxAreRefused() throws {
        try assertRefused(header(declaredSize: nil, sections: [(1, UInt64.max, 4)]), "section 1 offset 18446744073709551615 is past any file size")
        try assertRefused(header(declaredSize: nil, sections: [(1, 512, 1 << 63)]), "section 1 length 9223372036854775808 is past any file size")
    }
}
