import Foundation
import OffgridCore
import PackRepository
import TestSupport
import XCTest

/// Shared steps of the publishing tests: running `tilepack-build publish`, reading its summary,
/// hashing a repository tree, making the sample's modified version.
enum Publish {
    static let mbtiles = TestTools.path("samples/liechtenstein.mbtiles")
    static let pmtiles = TestTools.path("samples/liechtenstein.pmtiles")
    static let pbf = TestTools.path("samples/liechtenstein.osm.pbf")

    /// Runs `tilepack-build publish <args>`, expects success, returns the JSON summary.
    @discardableResult
    static func run(_ args: [String], environment: [String: String]? = nil,
                    file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let r = try TestTools.result("tilepack-build", ["publish"] + args + (args.first == "style" ? [] : ["--progress", "none"]),
                                     environment: environment)
        XCTAssertEqual(r.status, 0, "publish \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return try JSONReader.parse(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs a failing publish and returns its stderr (checked to be one line).
    static func failure(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try TestTools.result("tilepack-build", ["publish"] + args)
        XCTAssertNotEqual(r.status, 0, "publish \(args) should fail", file: file, line: line)
        XCTAssertEqual(r.stdout, "", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "one line: \(r.stderr)", file: file, line: line)
        return r.stderr
    }

    /// Every file (path and bytes) under `root`, with the inode, hashed: equal hashes mean
    /// nothing was written, renamed or added.
    static func treeHash(_ root: String, inodes: Bool = true) -> String {
        var sha = SHA256()
        let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).sorted()
        for rel in files where FileTools.kind(root + "/" + rel) == .file {
            sha.update(Array(rel.utf8) + [0])
            sha.update((try? FileTools.readFile(root + "/" + rel, maxBytes: 1 << 30)) ?? [])
            if inodes {
                var st = stat()
                stat(root + "/" + rel, &st)
                sha.update(Array(String(st.st_ino).utf8))
            }
        }
        return SHA256.hex(sha.finalize())
    }

    /// The object files under `root/objects`.
    static func objects(_ root: String) -> Set<String> {
        Set((FileManager.default.enumerator(atPath: root + "/objects")?.compactMap { $0 as? String } ?? [])
            .filter { $0.count == 67 }.map { String($0.suffix(64)) })
    }

    /// The sample's next version (one road, one tile changed) by samples/make-modified-sample.py.
    static func modifiedSample(in scratch: Scratch) throws -> (pbf: String, mbtiles: String) {
        let python = try TestPython.executable()
        let out = (scratch.path("li2.osm.pbf"), scratch.path("li2.mbtiles"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [TestTools.path("samples/make-modified-sample.py"), "--pbf", pbf, "--pbf-out", out.0,
                       "--mbtiles", mbtiles, "--mbtiles-out", out.1]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw InputError("samples/make-modified-sample.py failed (needs osmium-tool: make test-deps)")
        }
        return out
    }

    static func summaryInt(_ s: JSONValue, _ key: String) -> Int { s[key]?.intValue ?? -1 }
}
