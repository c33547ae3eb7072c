import Foundation
import MapPacks
import TileMath
import TileSources
import XCTest

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
func repoPath(_ relative: String) -> String { repositoryRoot.appendingPathComponent(relative).path }
let sampleMBTiles = repoPath("samples/liechtenstein.mbtiles")
let samplePMTiles = repoPath("samples/liechtenstein.pmtiles")

final class Scratch {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("offgrid-mp-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
        return path(name)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}


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

func toolBinary(_ name: String) throws -> URL {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let candidates = [exe.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent(),
                      repositoryRoot.appendingPathComponent(".build/debug"), repositoryRoot.appendingPathComponent(".build/release")]
    for dir in candidates {
        let url = dir.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw XCTSkip("\(name) is not built")
}

func runTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = try toolBinary(name)
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

func jsonObject(_ text: String) throws -> [String: Any] {
    try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
