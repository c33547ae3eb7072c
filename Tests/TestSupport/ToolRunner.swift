import Foundation
import XCTest

/// What a finished tool run gave back.
public struct ToolResult {
    public var status: Int32
    /// True when the process died of a signal (`status` is then the signal number).
    public var signaled: Bool
    public var stdoutData: Data
    public var stderr: String
    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
}

/// A built tool was not found: a failure, never a skip (`make test` builds the tools first).
public struct MissingToolError: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "\(name) is not built: run `swift build` (make test builds every tool first)" }
}

/// Running the project's built tools from tests, as a user would.
public enum TestTools {
    /// The repository root (this file is Tests/TestSupport/ToolRunner.swift).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path under the repository root, e.g. `TestTools.path("samples/liechtenstein.osm.pbf")`.
    public static func path(_ relative: String) -> String {
        repositoryRoot.appendingPathComponent(relative).path
    }

    /// A built tool, next to the test bundle (the build the tests come from) or else in
    /// `.build/debug` / `.build/release`. A missing tool throws: the test fails, it is not skipped.
    public static func binary(_ name: String) throws -> URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidates = [exe.deletingLastPathComponent(), Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
            + [repositoryRoot.appendingPathComponent(".build/debug"), repositoryRoot.appendingPathComponent(".build/release")]
        for dir in candidates {
            let url = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw MissingToolError(name: name)
    }

    /// Runs a tool to completion: its exit status (the signal number if it died of one), stdout
    /// and stderr as text.
    public static func run(_ name: String, _ arguments: [String], stdin: String? = nil,
                           environment: [String: String]? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try result(name, arguments, stdin: stdin, environment: environment)
        return (r.status, r.stdout, r.stderr)
    }

    /// Runs a tool to completion with `arguments` (and `stdin`, if given). Both output pipes are
    /// drained at once, so a tool writing a lot to stderr cannot block on a full pipe.
    public static func result(_ name: String, _ arguments: [String], stdin: String? = nil,
                              environment: [String: String]? = nil) throws -> ToolResult {
        let process = Process()
        process.executableURL = try binary(name)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let stderrData = LockedValue(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            stderrData.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
            try? input.fileHandleForWriting.close()
            group.leave()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ToolResult(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                          stdoutData: stdout, stderr: String(decoding: stderrData.get(), as: UTF8.self))
    }

    /// Starts a tool with its output discarded (for kill and signal tests); returns the process.
    public static func start(_ name: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try binary(name)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}

/// A fresh directory under the system temporary directory, removed by `remove()` (tests call it
/// in tearDown or defer) and, whatever is left, when the test process exits: XCTest makes a test
/// case's instance, and so its scratch, even for tests a filter leaves out, and shared fixtures
/// live until the end.
public final class Scratch {
    public let root: String
    public var url: URL { URL(fileURLWithPath: root) }

    private static let made = LockedValue<[String]>([])
    private static let removedAtExit: Void = {
        atexit { for root in Scratch.made.get() { try? FileManager.default.removeItem(atPath: root) } }
    }()

    public init(_ label: String = "offgrid") {
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        Scratch.removedAtExit
        Scratch.made.update { $0.append(root) }
    }

    public func path(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }

    /// Writes `text` to `name` (creating parent directories) and returns the path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String {
        let p = path(name)
        try FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: p))
        return p
    }

    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        try write(name, Data(bytes))
    }

    public func remove() { try? FileManager.default.removeItem(atPath: root) }

    /// Names in the root that look like leftovers of atomic writes or unpacks.
    public func leftovers() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { $0.contains(".partial-") || $0.contains(".tmp-") }.sorted()
    }
}

/// A value shared between threads.
public final class LockedValue<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    public init(_ value: T) { self.value = value }
    public func get() -> T { lock.lock(); defer { lock.unlock() }; return value }
    public func set(_ v: T) { lock.lock(); value = v; lock.unlock() }
    public func update(_ body: (inout T) -> Void) { lock.lock(); body(&value); lock.unlock() }
}

/// Whether timing assertions run: only with OFFGRID_PERF=1 (on a release build), since these
/// machines are shared and noisy.
public enum PerfGate {
    public static var enabled: Bool { ProcessInfo.processInfo.environment["OFFGRID_PERF"] == "1" }
}

/// The project venv's Python (made by `make pydeps`, exported by the Makefile as OFFGRID_PYTHON):
/// the real clients and oracles the tests run (polyline, pmtiles, requests, ...). Missing → the
/// test fails with how to make it, never skips.
public enum TestPython {
    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "no Python venv at \(path): run `make pydeps` (make test makes it first)" }
    }

    public static func executable() throws -> String {
        let path = ProcessInfo.processInfo.environment["OFFGRID_PYTHON"] ?? TestTools.path(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing(path: path) }
        return path
    }
}
