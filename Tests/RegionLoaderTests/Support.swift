import Foundation
import OffgridCore
import TestSupport
import XCTest

/// Running `tilestore` against a store and reading its JSON.
struct Tilestore {
    let store: String

    @discardableResult
    func run(_ args: [String], env: [String: String]? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        let r = try TestTools.result("tilestore", ["--store", store] + args, environment: env)
        XCTAssertEqual(r.status, 0, "tilestore \(args.joined(separator: " ")): \(r.stderr)", file: file, line: line)
        return (try? JSONReader.parse(Array(r.stdoutData))) ?? .null
    }

    func fail(_ args: [String]) throws -> String {
        let r = try TestTools.result("tilestore", ["--store", store] + args)
        XCTAssertNotEqual(r.status, 0, "tilestore \(args.joined(separator: " ")) should have failed")
        return r.stderr
    }

    /// `verify` passes (exit 0, consistent).
    func assertConsistent(file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.fileExists(atPath: store + "/index.sqlite") else { return }
        let r = try TestTools.result("tilestore", ["--store", store, "verify"])
        XCTAssertEqual(r.status, 0, "verify: \(r.stderr) \(r.stdout)", file: file, line: line)
    }

    func regionIds() throws -> [String] {
        guard FileManager.default.fileExists(atPath: store + "/index.sqlite") else { return [] }
        return try run(["list"])["regions"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    /// Files under a store directory (recursively).
    func files(under dir: String) -> [String] {
        let base = store + "/" + dir
        return (FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? []).filter {
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: base + "/" + $0, isDirectory: &isDir) && !isDir.boolValue
        }
    }
}

extension JSONValue {
    var int64: Int64 { Int64(intValue ?? -1) }
}
