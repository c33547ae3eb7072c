import Foundation
import MapPacks
import TileMath
import TileSources
import TestSupport
import XCTest

let repositoryRoot = TestTools.repositoryRoot
func repoPath(_ relative: String) -> String { repositoryRoot.appendingPathComponent(relative).path }
let sampleMBTiles = repoPath("samples/liechtenstein.mbtiles")
let samplePMTiles = repoPath("samples/liechtenstein.pmtiles")



/// Every file under `dir` (relative path → bytes).
func treeContents(_ dir: String) -> [String: Data] {
    var out: [String: Data] = [:]
    let e = FileManager.default.enumerator(atPath: dir)
    while let rel = e?.nextObject() as? String {
        var isDir: ObjCBool = false
        let full = (dir as NSString).appendingPathComponent(rel)
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue {
            out[rel] = FileManager.default.contents(atPath: full)
        }
    }
    return out
}

func jsonObject(_ text: String) throws -> [String: Any] {
    try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

/// The project's built tools, run as a user runs them (shared helper in TestSupport).
func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try TestTools.run(name, arguments)
}
