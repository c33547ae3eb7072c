import OffgridCore

/// The validation rules the publisher and the client share (docs/FORMATS.md, "Pack repository").
/// A repository is read from hosts we do not control, so every name, key, hash and size in an
/// index is checked before it becomes a path, an allocation or a download.
public enum RepositoryRules {
    /// Largest index file read (top-level or per-version), checked before parsing.
    public static let maxIndexBytes = 256 << 20
    /// Largest object: a map pack, a routing tile or a style pack.
    public static let maxObjectBytes = 2 << 30
    /// Most entries one per-version index may list.
    public static let maxEntries = 10_000_000
    /// Most tilesets, routing profiles, styles, or versions of one of them, in the top-level index.
    public static let maxListed = 100_000
    public static let maxNameLength = 128

    /// A tileset name, version, routing profile or data version: `[A-Za-z0-9._-]{1,128}`, and
    /// not `.` or `..` (they become path components).
    public static func isName(_ s: String) -> Bool {
        let u = s.utf8
        guard !u.isEmpty, u.count <= maxNameLength, s != ".", s != ".." else { return false }
        return u.allSatisfy(isNameByte)
    }

    @inline(__always) static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
    }

    /// 64 lowercase hex digits.
    public static func isSHA256(_ s: String) -> Bool {
        let u = s.utf8
        return u.count == 64 && u.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// 0 < size ≤ 2 GiB.
    public static func isObjectSize(_ size: Int) -> Bool { size > 0 && size <= maxObjectBytes }

    /// A style URI (or name, as `tilepack-build style` records it): 1-1024 bytes of UTF-8
    /// without control characters. It names a style; it never becomes a path (style objects
    /// are found by hash).
    public static func isStyleURI(_ s: String) -> Bool {
        let u = s.utf8
        return !u.isEmpty && u.count <= 1024 && u.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
    }
}

/// Where things live inside a repository. Object paths come from the hash alone, never from a
/// string in an index.
public enum RepositoryLayout {
    public static let indexFile = "index.json"
    public static let objectsDirectory = "objects"

    /// `objects/<h0h1>/<sha256 hex>`; nil when `sha256` is not 64 lowercase hex digits.
    public static func objectPath(sha256: String) -> String? {
        guard RepositoryRules.isSHA256(sha256) else { return nil }
        return "\(objectsDirectory)/\(sha256.prefix(2))/\(sha256)"
    }

    /// `tilesets/<name>/<version>.json`; nil unless both are valid names.
    public static func tilesetIndexPath(name: String, version: String) -> String? {
        guard RepositoryRules.isName(name), RepositoryRules.isName(version) else { return nil }
        return "tilesets/\(name)/\(version).json"
    }

    /// `routing/<profile>/<data_version>.json`; nil unless both are valid names.
    public static func routingIndexPath(profile: String, dataVersion: String) -> String? {
        guard RepositoryRules.isName(profile), RepositoryRules.isName(dataVersion) else { return nil }
        return "routing/\(profile)/\(dataVersion).json"
    }
}

/// One object a per-version index lists: its key (what it is), content hash and size.
public struct RepositoryEntry: Equatable, Hashable, Sendable {
    public var key: String
    public var sha256: String
    public var size: Int

    public init(key: String, sha256: String, size: Int) {
        self.key = key
        self.sha256 = sha256
        self.size = size
    }

    /// `objects/<h0h1>/<sha256>` (the entry's hash was validated when it was decoded or made).
    public var objectPath: String { RepositoryLayout.objectPath(sha256: sha256) ?? "" }
}

/// Decoding helpers: every failure is one `InputError` line naming the file or URL.
struct IndexReader {
    let source: String
    let what: String

    func fail(_ message: String) -> InputError { InputError(file: source, "invalid \(what): \(message)") }

    /// Bounds the size, then parses; the root must be an object.
    func root(_ bytes: [UInt8]) throws -> [String: JSONValue] {
        guard bytes.count <= RepositoryRules.maxIndexBytes else {
            throw fail("\(bytes.count) bytes, more than the \(RepositoryRules.maxIndexBytes) accepted")
        }
        let value: JSONValue
        do { value = try JSONReader.parse(bytes) } catch let e as JSONReader.ParseError {
            throw InputError(file: source, offset: e.offset, "invalid \(what): \(e.message)")
        }
        guard let object = value.objectValue else { throw fail("not a JSON object") }
        return object
    }

    func format(_ root: [String: JSONValue], expected: String, version: Int) throws {
        guard root["format"]?.stringValue == expected else { throw fail("format is not \"\(expected)\"") }
        guard let v = root["format_version"]?.intValue else { throw fail("format_version missing") }
        guard v == version else { throw fail("unsupported format_version \(v) (this tool reads \(version))") }
    }

    func string(_ object: [String: JSONValue], _ key: String, at place: String) throws -> String {
        guard let s = object[key]?.stringValue else { throw fail("\(place): \"\(key)\" missing or not a string") }
        return s
    }

    func name(_ object: [String: JSONValue], _ key: String, at place: String) throws -> String {
        let s = try string(object, key, at: place)
        guard RepositoryRules.isName(s) else { throw fail("\(place): \"\(key)\" \(quoted(s)) is not [A-Za-z0-9._-]{1,128}") }
        return s
    }

    func sha256(_ object: [String: JSONValue], at place: String) throws -> String {
        let s = try string(object, "sha256", at: place)
        guard RepositoryRules.isSHA256(s) else { throw fail("\(place): sha256 \(quoted(s)) is not 64 lowercase hex digits") }
        return s
    }

    func size(_ value: JSONValue?, at place: String) throws -> Int {
        guard let v = value, case .int(let n) = v else { throw fail("\(place): size missing or not an integer") }
        guard RepositoryRules.isObjectSize(n) else { throw fail("\(place): size \(n) is not within 1-\(RepositoryRules.maxObjectBytes)") }
        return n
    }

    func array(_ object: [String: JSONValue], _ key: String, at place: String, max: Int) throws -> [JSONValue] {
        guard let a = object[key]?.arrayValue else { throw fail("\(place): \"\(key)\" missing or not an array") }
        guard a.count <= max else { throw fail("\(place): \"\(key)\" has \(a.count) items, more than the \(max) accepted") }
        return a
    }

    func object(_ value: JSONValue, at place: String) throws -> [String: JSONValue] {
        guard let o = value.objectValue else { throw fail("\(place) is not an object") }
        return o
    }

    /// `[[KEY, SHA256, SIZE], …]`, strictly ascending by key (so no key twice), each key accepted by `isKey`.
    func entries(_ root: [String: JSONValue], isKey: (String) -> Bool) throws -> [RepositoryEntry] {
        let list = try array(root, "entries", at: "index", max: RepositoryRules.maxEntries)
        var out: [RepositoryEntry] = []
        out.reserveCapacity(list.count)
        for (i, item) in list.enumerated() {
            guard let a = item.arrayValue, a.count == 3, let key = a[0].stringValue, let hash = a[1].stringValue else {
                throw fail("entry \(i) is not [key, sha256, size]")
            }
            guard isKey(key) else { throw fail("entry \(i): key \(quoted(key)) is not a valid key") }
            guard RepositoryRules.isSHA256(hash) else { throw fail("entry \(i) (\(key)): sha256 \(quoted(hash)) is not 64 lowercase hex digits") }
            let size = try size(a[2], at: "entry \(i) (\(key))")
            if let last = out.last, !(last.key.utf8.lexicographicallyPrecedes(key.utf8)) {
                throw fail(last.key == key ? "key \(key) is listed twice" : "entry \(i): key \(key) is out of order (entries are sorted by key)")
            }
            out.append(RepositoryEntry(key: key, sha256: hash, size: size))
        }
        return out
    }

    /// A string quoted for an error line, cut short and with control characters escaped.
    func quoted(_ s: String) -> String {
        var out = ""
        JSONWriter.writeString(String(s.prefix(80)), to: &out)
        return out
    }
}

/// Entries as JSON, sorted by key bytes (the order decoders require).
func entriesJSON(_ entries: [RepositoryEntry]) -> JSONValue {
    .array(entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
        [.string($0.key), .string($0.sha256), .int($0.size)]
    })
}

/// Compact JSON with a final newline: the bytes every index file holds.
func indexBytes(_ value: JSONValue) -> [UInt8] {
    Array((JSONWriter.string(value, pretty: false) + "\n").utf8)
}
