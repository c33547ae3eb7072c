import Foundation
import OffgridCore
import TestSupport
import XCTest

/// The shape issue 10 gave the code, kept by tests: libraries do not link the CLI parser, return
/// typed values (no `[String: Any]`), read JSON exactly (no JSONSerialization), and files stay
/// small enough to read.
final class PackageShapeTests: XCTestCase {
    static let executables: Set<String> = ["tilepack-build", "tilepack-unpack", "route-graph", "route-query", "tilestore"]
    /// Modules for executables only.
    static let cliModules: Set<String> = ["ToolSupport"]

    func testNoLibraryDependsOnArgumentParser() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Its own scratch path: the build directory is locked by the `swift test` running this.
        let scratch = Scratch("dump-package")
        defer { scratch.remove() }
        process.arguments = ["swift", "package", "--package-path", TestTools.repositoryRoot.path,
                             "--scratch-path", scratch.root, "dump-package"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "swift package dump-package failed")
        let package = try JSONReader.parse([UInt8](data))
        var offenders: [String] = []
        var libraries = 0
        for target in package["targets"]?.arrayValue ?? [] {
            guard target["type"]?.stringValue == "regular", let name = target["name"]?.stringValue,
                  !Self.cliModules.contains(name) else { continue }
            libraries += 1
            let text = JSONWriter.string(target["dependencies"] ?? .null, pretty: false)
            if text.contains("ArgumentParser") { offenders.append(name) }
        }
        XCTAssertGreaterThan(libraries, 10)
        XCTAssertEqual(offenders, [], "library targets depending on ArgumentParser")
    }

    func testLibrariesReturnTypedValuesAndReadJSONExactly() throws {
        var offenders: [String] = []
        for file in try swiftFiles(under: "Sources") where !Self.isExecutable(file) && !file.hasPrefix("Sources/ToolSupport/") {
            let text = try String(contentsOfFile: TestTools.path(file), encoding: .utf8)
            for pattern in ["[String: Any]", "JSONSerialization", "NSNumber"] where text.contains(pattern) {
                offenders.append("\(file): \(pattern)")
            }
        }
        XCTAssertEqual(offenders, [])
    }

    func testFilesStaySmall() throws {
        var offenders: [String] = []
        for file in try swiftFiles(under: "Sources") {
            let lines = try String(contentsOfFile: TestTools.path(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
            let limit = Self.isExecutable(file) ? 150 : 400
            if lines > limit + limit / 10 { offenders.append("\(file): \(lines) lines (limit ~\(limit))") }
        }
        XCTAssertEqual(offenders, [])
    }

    static func isExecutable(_ file: String) -> Bool {
        executables.contains(file.split(separator: "/").dropFirst().first.map(String.init) ?? "")
    }

    private func swiftFiles(under dir: String) throws -> [String] {
        let root = TestTools.repositoryRoot.path + "/"
        guard let e = FileManager.default.enumerator(atPath: root + dir) else { return [] }
        return e.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { dir + "/" + $0 }.sorted()
    }
}
