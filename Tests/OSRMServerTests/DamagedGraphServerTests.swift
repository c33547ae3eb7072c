import Foundation
import OffgridCore
import TestSupport
import XCTest

/// The server over a graph file whose hierarchy is damaged where every search goes: it opens
/// (the hierarchy is checked block by block as searches reach it), then answers a route with
/// OSRM's InternalError naming the damage, never with a route computed over it, and stays up.
final class DamagedGraphServerTests: XCTestCase {
    func testDamagedHierarchyIsAnsweredWithAnErrorNotARoute() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try SampleGraph.path())))
        let (offset, length) = try Self.section(65, in: bytes)   // chArcs: (head and direction, weight) per arc
        // Every weight 2^31 - 1, above what queries add exactly. Opening checks no CRC.
        for at in stride(from: offset + 4, to: offset + length, by: 8) {
            bytes.replaceSubrange(at..<at + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        }
        let damaged = SampleGraph.directory.appendingPathComponent("damaged-weights.chg").path
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let server = try ServerProcess(graph: damaged)
        defer { server.stop() }
        let http = RawHTTP(port: server.port)
        for _ in 0..<2 {
            let reply = try XCTUnwrap(try http.get("/route/v1/driving/9.5209,47.1410;9.5095,47.0613?steps=true"))
            XCTAssertEqual(reply.status, 500, reply.body)
            let json = try JSONReader.parse(reply.body)
            XCTAssertEqual(json["code"]?.stringValue, "InternalError")
            XCTAssertTrue(json["message"]?.stringValue?.contains("damaged graph file: hierarchy: arc ") ?? false, reply.body)
        }
        XCTAssertEqual(try http.get("/health")?.status, 200)
        XCTAssertEqual(server.stop(), 0)
    }

    /// Offset and length of section `id` from a graph file's section table (GraphFileFormat).
    static func section(_ id: UInt32, in b: [UInt8]) throws -> (Int, Int) {
        func u32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
        func u64(_ at: Int) -> Int { u32(at) | u32(at + 4) << 32 }
        let count = u32(20)
        var at = 144   // after magic, version, header length and CRC, section count, file size, 14 scalars
        for _ in 0..<4 { at += 4 + u32(at) }   // data version, profile name, profile hash, travel mode
        for i in 0..<count where u32(at + 32 * i) == Int(id) {
            return (u64(at + 32 * i + 8), u64(at + 32 * i + 16))
        }
        throw HarnessError("no section \(id)")
    }
}
