import Foundation
import OffgridCore

/// Where a repository lives: an `http://` / `https://` base URL, or a directory (`file:///…` or a
/// plain path). Files inside it are named by repository-relative paths that the client builds
/// itself (`index.json`, `objects/ab/ab12…`), never taken verbatim from the network.
public struct RepositoryLocation: Sendable, CustomStringConvertible {
    public enum Scheme: Sendable { case http, file }
    public let scheme: Scheme
    /// `http(s)://host[:port]/path` without a trailing slash, or an absolute directory path.
    public let base: String

    public init(_ text: String) throws {
        var t = text
        while t.hasSuffix("/") && t.count > 1 { t.removeLast() }
        let lower = t.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = URL(string: t), let host = url.host, !host.isEmpty else {
                throw InputError(file: text, "not a usable repository URL (expected http(s)://host[:port]/path)")
            }
            scheme = .http
            base = t
        } else if lower.hasPrefix("file://") {
            let path = String(t.dropFirst("file://".count))
            guard path.hasPrefix("/") else { throw InputError(file: text, "a file:// URL must name an absolute path (file:///dir)") }
            scheme = .file
            base = path.removingPercentEncoding ?? path
        } else if lower.contains("://") {
            throw InputError(file: text, "unsupported URL scheme (use http://, https:// or file://)")
        } else {
            scheme = .file
            base = t.hasPrefix("/") ? t : FileManager.default.currentDirectoryPath + "/" + t
        }
    }

    /// The URL (or path) of a repository-relative file, for requests and error messages.
    public func url(_ relative: String) -> String {
        switch scheme {
        case .http: return base + "/" + relative
        case .file: return (base as NSString).appendingPathComponent(relative)
        }
    }

    public var description: String { scheme == .http ? base : "file://" + base }

    /// Whether `relative` is safe to join under the base: non-empty segments of [A-Za-z0-9._-],
    /// none `.` or `..`. Paths from an index are checked with this before any request.
    public static func isSafeRelativePath(_ relative: String) -> Bool {
        guard !relative.isEmpty, relative.utf8.count <= 1024 else { return false }
        for segment in relative.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty, segment != ".", segment != "..", segment.utf8.count <= 255,
                  segment.utf8.allSatisfy({ isSafeByte($0) }) else { return false }
        }
        return true
    }

    static func isSafeByte(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 46 || b == 95 || b == 45
    }
}
