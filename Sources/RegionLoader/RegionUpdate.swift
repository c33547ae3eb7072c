import Foundation
import OffgridCore
import PackRepository
import RepositoryClient
import TileMath
import TileStore

extension RegionLoader {
    /// `update ID [--from URL]`: loads the region again as it was loaded (same geometry, tileset,
    /// zooms, routing profile, style), at the repository's newest versions. Objects the store
    /// holds are not fetched; packs past their expiry are, unless `acceptExpired`.
    public static func update(store path: String, regionId: String, from: RepositoryLocation?, acceptExpired: Bool,
                              fetch: FetchOptions, progress: @escaping ProgressFactory, quiet: Bool) throws -> LoadReport {
        let store = try TileStore.open(path, access: .read, quiet: quiet)
        guard try store.regionExists(regionId) else { throw InputError("no region \"\(regionId)\" in the store (see tilestore list)") }
        guard let source = try store.loadSource(regionId: regionId), let s = source.objectValue else {
            throw InputError("region \"\(regionId)\" was installed from files, not loaded from a repository; nothing to update it from (use load)")
        }
        store.close()
        let repository = try from ?? RepositoryLocation(s["repository"]?.stringValue ?? "")
        guard let geometry = s["geometry"] else { throw InputError("region \"\(regionId)\": its load record has no geometry") }
        let region: Region
        do { region = try Region.parse(geoJSON: JSONWriter.string(geometry, pretty: false)) } catch {
            throw InputError("region \"\(regionId)\": its recorded geometry does not parse: \(error)")
        }
        var request = LoadRequest(regionId: regionId, repository: repository, region: region)
        request.tileset = s["tileset"]?.stringValue
        if let z = s["zooms"]?.arrayValue?.compactMap(\.intValue), z.count == 2, z[0] <= z[1] { request.zooms = z[0]...z[1] }
        request.routingProfile = s["routing"]?.stringValue
        request.style = s["style"]?.stringValue
        request.maxPacks = s["maxPacks"]?.intValue ?? request.maxPacks
        request.maxTiles = s["maxTiles"]?.intValue
        request.maxRoutingTiles = s["maxRoutingTiles"]?.intValue ?? request.maxRoutingTiles
        request.acceptExpired = acceptExpired
        request.fetch = fetch
        request.progress = progress
        return try load(store: path, request: request, quiet: quiet)
    }

    /// `versions --from URL`: the repository's tilesets, routing data versions (newest first) and styles.
    public static func versions(from location: RepositoryLocation, fetch: FetchOptions) throws -> JSONValue {
        try Blocking.run {
            try await RepositoryClient.with(location, options: fetch) { client in
                let (top, _) = try await RepositoryIndexes(client: client, cacheDirectory: nil).top()
                return [
                    "repository": .string(location.description),
                    "tilesets": .array(top.tilesets.map { ["name": .string($0.name), "versions": .array($0.versions.map { .string($0.version) })] }),
                    "routing": .array(top.routing.map { ["profile": .string($0.profile), "versions": .array($0.versions.map { .string($0.version) })] }),
                    "styles": .array(top.styles.map { ["uri": .string($0.uri), "size": .int($0.size)] }),
                ]
            }
        }
    }
}
