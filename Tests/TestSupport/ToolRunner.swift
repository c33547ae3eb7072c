import Foundation
import XCTest

/// Running the project's built tools from tests, as a user would.
public enum TestTools {
    /// The repository root (this file is Tests/TestSupport/ToolRunner.swift).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A built tool: next to the test bundle (debug) or in .build/release (after `make build`);
    /// the test is skipped when it is not built.
    public static func binary(_ name: String) throws -> URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidates = [exe.deletingLastPathComponent(), Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
                          repositoryRoot.appendingPathComponent(".build/debug"), repositoryRoot.appendingPathComponent(".build/release")]
        for dir in candidates {
            let url = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw XCTSkip("\(name) is not built")
    }

    /// Runs a tool with `arguments` (and `stdin`, if given) and returns its exit status and output.
    public static func run(_ name: String, _ arguments: [String], stdin: String? = nil) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try binary(name)
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
