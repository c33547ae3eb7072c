import Foundation
import OffgridCore

/// Checks a repository directory the way a client would trust it: `index.json` decodes, every
/// per-version index it lists has the listed hash and size and decodes, and every object those
/// indexes and the styles name is present with its size and SHA-256.
public enum RepositoryVerifier {
    public struct Report: Equatable, Sendable {
        public var versions = 0
        public var objects = 0
        public var bytes: Int64 = 0
        public init(versions: Int = 0, objects: Int = 0, bytes: Int64 = 0) {
            self.versions = versions; self.objects = objects; self.bytes = bytes
        }
    }

    public static func verify(root: String) throws -> Report {
        func path(_ rel: String) -> String { (root as NSString).appendingPathComponent(rel) }
        let index = try RepositoryIndex.load(path: path(RepositoryLayout.indexFile))
        var report = Report()
        var checked = Set<String>()
        func object(_ sha: String, _ size: Int, for what: String) throws {
            guard checked.insert(sha).inserted else { return }
            let file = path(RepositoryLayout.objectPath(sha256: sha)!)
            let bytes = try FileTools.readFile(file, maxBytes: size)
            guard bytes.count == size else { throw InputError(file: file, "\(what): \(bytes.count) bytes, the index says \(size)") }
            guard SHA256.hex(SHA256.hash(bytes)) == sha else { throw InputError(file: file, "\(what): the bytes do not have the listed SHA-256") }
            report.objects += 1
            report.bytes += Int64(size)
        }
        func versionIndex(_ ref: RepositoryIndex.VersionRef) throws -> [UInt8] {
            let file = path(ref.index)
            let bytes = try FileTools.readFile(file, maxBytes: ref.size)
            guard bytes.count == ref.size, SHA256.hex(SHA256.hash(bytes)) == ref.sha256 else {
                throw InputError(file: file, "does not have the size and SHA-256 index.json lists")
            }
            report.versions += 1
            return bytes
        }
        for t in index.tilesets {
            for ref in t.versions {
                let v = try TilesetVersionIndex.decode(try versionIndex(ref), source: path(ref.index))
                guard v.name == t.name, v.version == ref.version else { throw InputError(file: path(ref.index), "names another tileset or version") }
                for e in v.entries { try object(e.sha256, e.size, for: "\(t.name) \(ref.version) \(e.key)") }
            }
        }
        for r in index.routing {
            for ref in r.versions {
                let v = try RoutingVersionIndex.decode(try versionIndex(ref), source: path(ref.index))
                guard v.profile == r.profile, v.dataVersion == ref.version else { throw InputError(file: path(ref.index), "names another profile or data version") }
                for e in v.entries { try object(e.sha256, e.size, for: "routing \(r.profile) \(ref.version) tile \(e.key)") }
            }
        }
        for s in index.styles { try object(s.sha256, s.size, for: "style \(s.uri)") }
        return report
    }
}
