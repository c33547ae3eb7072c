import OffgridCore

/// `index.json`, the top-level index and the only mutable file of a repository: the tilesets with
/// their versions, the routing data versions per profile, and the style packs. Versions are
/// listed newest first (publication order). Each version points at its per-version index with
/// that file's hash and size, so a client verifies indexes like objects.
public struct RepositoryIndex: Equatable, Sendable {
    public static let format = "offgrid-repository"
    public static let formatVersion = 1

    /// A per-version index file as the top-level index names it.
    public struct VersionRef: Equatable, Sendable {
        public var version: String
        /// Relative path of the per-version index (derived from the names; decoders check it).
        public var index: String
        public var sha256: String
        public var size: Int

        public init(version: String, index: String, sha256: String, size: Int) {
            self.version = version
            self.index = index
            self.sha256 = sha256
            self.size = size
        }
    }

    public struct Tileset: Equatable, Sendable {
        public var name: String
        /// Newest first.
        public var versions: [VersionRef]
        public init(name: String, versions: [VersionRef]) { self.name = name; self.versions = versions }
    }

    public struct Routing: Equatable, Sendable {
        public var profile: String
        /// Newest first; `VersionRef.version` is the data version.
        public var versions: [VersionRef]
        public init(profile: String, versions: [VersionRef]) { self.profile = profile; self.versions = versions }
    }

    /// A style pack: its object is `objects/…/<sha256>`.
    public struct Style: Equatable, Sendable {
        public var uri: String
        public var sha256: String
        public var size: Int
        public init(uri: String, sha256: String, size: Int) { self.uri = uri; self.sha256 = sha256; self.size = size }
        public var objectPath: String { RepositoryLayout.objectPath(sha256: sha256) ?? "" }
    }

    /// Sorted by name.
    public var tilesets: [Tileset]
    /// Sorted by profile.
    public var routing: [Routing]
    /// Sorted by URI.
    public var styles: [Style]

    public init(tilesets: [Tileset] = [], routing: [Routing] = [], styles: [Style] = []) {
        self.tilesets = tilesets.sorted { $0.name < $1.name }
        self.routing = routing.sorted { $0.profile < $1.profile }
        self.styles = styles.sorted { $0.uri < $1.uri }
    }

    public func tileset(named name: String) -> Tileset? { tilesets.first { $0.name == name } }
    public func routing(profile: String) -> Routing? { routing.first { $0.profile == profile } }
    public func style(uri: String) -> Style? { styles.first { $0.uri == uri } }

    // MARK: - Bytes

    public var json: JSONValue {
        func refs(_ versions: [VersionRef], key: String) -> JSONValue {
            .array(versions.map { [key: .string($0.version), "index": .string($0.index), "sha256": .string($0.sha256), "size": .int($0.size)] })
        }
        return [
            "format": .string(Self.format),
            "format_version": .int(Self.formatVersion),
            "tilesets": .array(tilesets.map { ["name": .string($0.name), "versions": refs($0.versions, key: "version")] }),
            "routing": .array(routing.map { ["profile": .string($0.profile), "versions": refs($0.versions, key: "data_version")] }),
            "styles": .array(styles.map { ["uri": .string($0.uri), "sha256": .string($0.sha256), "size": .int($0.size)] }),
        ]
    }

    /// Deterministic bytes: compact JSON, sorted keys, a final newline.
    public func encoded() -> [UInt8] { indexBytes(json) }

    /// Parses and validates `index.json` bytes; `source` (a path or URL) names it in errors.
    public static func decode(_ bytes: [UInt8], source: String) throws -> RepositoryIndex {
        let r = IndexReader(source: source, what: "repository index")
        let root = try r.root(bytes)
        try r.format(root, expected: format, version: formatVersion)

        var tilesets: [Tileset] = []
        for (i, item) in try r.array(root, "tilesets", at: "index", max: RepositoryRules.maxListed).enumerated() {
            let o = try r.object(item, at: "tileset \(i)")
            let name = try r.name(o, "name", at: "tileset \(i)")
            guard !tilesets.contains(where: { $0.name == name }) else { throw r.fail("tileset \(name) is listed twice") }
            let versions = try decodeRefs(o, r, place: "tileset \(name)", key: "version") {
                RepositoryLayout.tilesetIndexPath(name: name, version: $0)
            }
            tilesets.append(Tileset(name: name, versions: versions))
        }
        var routing: [Routing] = []
        for (i, item) in try r.array(root, "routing", at: "index", max: RepositoryRules.maxListed).enumerated() {
            let o = try r.object(item, at: "routing \(i)")
            let profile = try r.name(o, "profile", at: "routing \(i)")
            guard !routing.contains(where: { $0.profile == profile }) else { throw r.fail("routing profile \(profile) is listed twice") }
            let versions = try decodeRefs(o, r, place: "routing \(profile)", key: "data_version") {
                RepositoryLayout.routingIndexPath(profile: profile, dataVersion: $0)
            }
            routing.append(Routing(profile: profile, versions: versions))
        }
        var styles: [Style] = []
        var uris = Set<String>()
        for (i, item) in try r.array(root, "styles", at: "index", max: RepositoryRules.maxListed).enumerated() {
            let o = try r.object(item, at: "style \(i)")
            let uri = try r.string(o, "uri", at: "style \(i)")
            guard RepositoryRules.isStyleURI(uri) else { throw r.fail("style \(i): uri \(r.quoted(uri)) is not 1-1024 bytes without control characters") }
            guard uris.insert(uri).inserted else { throw r.fail("style \(uri) is listed twice") }
            styles.append(Style(uri: uri, sha256: try r.sha256(o, at: "style \(uri)"), size: try r.size(o["size"], at: "style \(uri)")))
        }
        return RepositoryIndex(tilesets: tilesets, routing: routing, styles: styles)
    }

    /// Reads `path` (refusing an oversized file before reading it) and decodes it.
    public static func load(path: String) throws -> RepositoryIndex {
        try decode(FileTools.readFile(path, maxBytes: RepositoryRules.maxIndexBytes), source: path)
    }

    private static func decodeRefs(_ o: [String: JSONValue], _ r: IndexReader, place: String, key: String,
                                   path: (String) -> String?) throws -> [VersionRef] {
        var refs: [VersionRef] = []
        var seen = Set<String>()
        for (j, item) in try r.array(o, "versions", at: place, max: RepositoryRules.maxListed).enumerated() {
            let v = try r.object(item, at: "\(place) version \(j)")
            let version = try r.name(v, key, at: "\(place) version \(j)")
            guard seen.insert(version).inserted else { throw r.fail("\(place): version \(version) is listed twice") }
            let index = try r.string(v, "index", at: "\(place) version \(version)")
            // The path is derived, never trusted: an index naming another file is refused.
            guard let expected = path(version), index == expected else {
                throw r.fail("\(place) version \(version): index \(r.quoted(index)) is not \(path(version) ?? "a valid path")")
            }
            refs.append(VersionRef(version: version, index: index, sha256: try r.sha256(v, at: "\(place) version \(version)"),
                                   size: try r.size(v["size"], at: "\(place) version \(version)")))
        }
        return refs
    }
}
