import Foundation
import TestSupport
import XCTest

/// docs/CLI.md documents every command and flag: each flag that a `--help` prints must appear
/// in the section of its command, so the reference cannot drift from the code.
final class CLIDocsTests: XCTestCase {
    static let tools = ["tilepack-build", "tilepack-unpack", "route-graph", "route-query", "tilestore"]

    func testEveryFlagOfEveryHelpIsDocumented() throws {
        let docs = try String(contentsOfFile: TestTools.path("docs/CLI.md"), encoding: .utf8)
        var missing: [String] = []
        for tool in Self.tools {
            for command in try commands(of: tool) {
                let help = try TestTools.run(tool, command + ["--help"])
                XCTAssertEqual(help.status, 0, "\(tool) \(command) --help")
                XCTAssertFalse(help.stdout.isEmpty, "\(tool) \(command.joined(separator: " ")) --help printed nothing")
                let name = ([tool] + command).joined(separator: " ")
                // A nested command without a section of its own falls back to its parent's, then its tool's.
                let names = (0...command.count).reversed().map { ([tool] + command.prefix($0)).joined(separator: " ") }
                guard let section = names.lazy.compactMap({ Self.section(named: $0, in: docs) }).first else {
                    missing.append("\(name): no section in docs/CLI.md")
                    continue
                }
                for flag in Self.flags(in: help.stdout) where !section.contains(flag) {
                    missing.append("\(name) \(flag)")
                }
            }
        }
        XCTAssertEqual(missing, [], "undocumented in docs/CLI.md")
    }

    /// The tool itself (when it has options of its own) and each of its subcommands, nested
    /// ones (`tilepack-build publish maps`) included.
    private func commands(of tool: String, under prefix: [String] = []) throws -> [[String]] {
        let help = try TestTools.run(tool, prefix + ["--help"])
        guard let range = help.stdout.range(of: "SUBCOMMANDS:") else { return [prefix] }
        var out: [[String]] = Self.flags(in: String(help.stdout[..<range.lowerBound])).isEmpty ? [] : [prefix]
        for line in help.stdout[range.upperBound...].split(separator: "\n") {
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first,
                  word.first?.isLetter == true, word != "See", word != "help" else { continue }
            out += try commands(of: tool, under: prefix + [String(word)])
        }
        return out
    }

    /// `--flags` of the OPTIONS part of a help text (not the examples or the overview).
    static func flags(in help: String) -> Set<String> {
        guard let start = help.range(of: "OPTIONS:") else { return [] }
        var flags = Set<String>()
        for line in help[start.upperBound...].split(separator: "\n") {
            let trimmed = line.drop(while: { $0 == " " })
            guard trimmed.hasPrefix("-") else { continue }
            for word in trimmed.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" || $0 == "=" })
            where word.hasPrefix("--") && word != "--help" && word != "--version" {
                flags.insert(String(word.prefix(while: { $0 == "-" || $0.isLetter || $0.isNumber })))
            }
        }
        return flags
    }

    /// The text of the docs section whose heading is `command` (up to the next heading of the
    /// same or a higher level); a subcommand without a section of its own falls back to its tool's.
    static func section(named command: String, in docs: String) -> String? {
        let lines = docs.split(separator: "\n", omittingEmptySubsequences: false)
        func title(_ line: Substring) -> String { String(line.drop(while: { $0 == "#" }).drop(while: { $0 == " " })) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("#") && title($0) == command }) else { return nil }
        let level = lines[start].prefix(while: { $0 == "#" }).count
        var end = start + 1
        while end < lines.count {
            let l = lines[end]
            if l.hasPrefix("#") && l.prefix(while: { $0 == "#" }).count <= level { break }
            end += 1
        }
        return lines[start..<end].joined(separator: "\n")
    }
}
