import Foundation
import MapPacks
import OffgridCore
import PackRepository
import RepositoryClient
import TileMath
import TileStore

/// `tilestore load` / `update`: a region from a pack repository into a store.
///
/// 1. indexes: `index.json` (ETag-revalidated), the chosen versions' indexes (hash-checked);
/// 2. the plan: the region's exact cover → map packs, routing grid tiles → routing tiles;
///    refused here, before any download, when over the limits;
/// 3. the objects the store does not hold are fetched into `STORE/partial/` over N connections
///    (no store lock held: other processes keep using the store; progress is journaled);
/// 4. under the store's lock, one install (maps + routing + the region's record in one
///    transaction) through the store's install routine; the style pack after it;
/// 5. partial files of installed objects are removed. Any failure journals `region-load-failed`
///    and leaves the store as it was, with the bytes received kept for the next run.
public enum RegionLoader {
    public static func load(store path: String, request: LoadRequest, quiet: Bool) throws -> LoadReport {
        let started = MonotonicClock.nanoseconds()
        guard TileStore.isDirectorySafeRegionId(request.regionId) else {
            throw InputError("region id \"\(request.regionId)\" must be 1-128 characters of A-Z a-z 0-9 . _ - (it names the region's routing directory)")
        }
        let partialDirectory = try TileStore.open(path, access: .write, quiet: quiet).partialDirectory
        do {
            return try Blocking.run {
                try await RepositoryClient.with(request.repository, options: request.fetch) { client in
                    try await run(path: path, request: request, client: client, partialDirectory: partialDirectory,
                                  quiet: quiet, started: started)
                }
            }
        } catch {
            if let journal = try? TileStore.open(path, access: .journal, quiet: true) {
                try? journal.record(.regionLoadFailed, region: request.regionId, data: ["error": .string("\(error)")])
            }
            throw error
        }
    }

    private static func run(path: String, request: LoadRequest, client: RepositoryClient, partialDirectory: String,
                            quiet: Bool, started: UInt64) async throws -> LoadReport {
        let indexes = RepositoryIndexes(client: client, cacheDirectory: partialDirectory)
        let (top, notModified) = try await indexes.top()
        let indexURL = client.location.url("index.json")

        // Versions and plan: everything checked before a single object is fetched.
        var plan = LoadPlan()
        var tilesetIndex: TilesetVersionIndex?
        if let name = request.tileset {
            guard let ts = top.tileset(named: name), var newest = ts.versions.first else {
                throw InputError(file: indexURL, "has no tileset \"\(name)\" (it has: \(top.tilesets.map(\.name).joined(separator: ", ")))")
            }
            if let v = request.tilesetVersion {
                guard let found = ts.versions.first(where: { $0.version == v }) else {
                    throw InputError(file: indexURL, "has no version \"\(v)\" of tileset \(name) (it has: \(ts.versions.map(\.version).joined(separator: ", ")))")
                }
                newest = found
            }
            let index = try await indexes.tileset(newest)
            tilesetIndex = index
            plan = try LoadPlan.maps(region: request.region, tileset: index, zooms: request.zooms, maxPacks: request.maxPacks,
                                     maxTiles: request.maxTiles, source: client.location.url(newest.index))
        }
        var routingIndex: RoutingVersionIndex?
        if let profile = request.routingProfile {
            guard let r = top.routing(profile: profile), !r.versions.isEmpty else {
                throw InputError(file: indexURL, "has no routing data for profile \"\(profile)\" (it has: \(top.routing.map(\.profile).joined(separator: ", ")))")
            }
            let ref: RepositoryIndex.VersionRef
            if let v = request.routingVersion {
                guard let found = r.versions.first(where: { $0.version == v }) else {
                    throw InputError(file: indexURL, "has no routing data version \"\(v)\" for \(profile) (it has: \(r.versions.map(\.version).joined(separator: ", ")))")
                }
                ref = found
            } else {
                ref = r.versions[0]
            }
            let index = try await indexes.routing(ref)
            routingIndex = index
            plan.routingTiles = try LoadPlan.routing(region: request.region, index: index, maxTiles: request.maxRoutingTiles)
        }
        var style: RepositoryIndex.Style?
        if let uri = request.style {
            guard let s = top.style(uri: uri) else {
                throw InputError(file: indexURL, "has no style \"\(uri)\" (it has: \(top.styles.map(\.uri).joined(separator: ", ")))")
            }
            style = s
        }

        // What the store lacks.
        var needed: [String: Int64] = [:]
        for p in plan.packs { needed[p.entry.sha256] = Int64(p.entry.size) }
        for t in plan.routingTiles { needed[t.entry.sha256] = Int64(t.entry.size) }
        let reader = try TileStore.open(path, access: .read, quiet: quiet)
        var missing: [ObjectRequest] = []
        var storedCount = 0
        for (sha, size) in needed.sorted(by: { $0.key < $1.key }) {
            if try reader.usableObjectFile(sha256: sha, acceptExpired: request.acceptExpired) != nil {
                storedCount += 1
            } else {
                missing.append(ObjectRequest(sha256: sha, size: size))
            }
        }
        if let s = style, try reader.styleIsInstalled(uri: s.uri, packFileName: s.sha256 + ".part") {
            storedCount += 1
            style = nil
            needed[s.sha256] = Int64(s.size)
        }
        if let style { missing.append(ObjectRequest(sha256: style.sha256, size: Int64(style.size))) }
        reader.close()

        // Fetch.
        let journal = try TileStore.open(path, access: .journal, quiet: true)
        let requiredBytes = needed.values.reduce(0, +) + Int64(style?.size ?? 0)
        let requiredObjects = needed.count + (style == nil ? 0 : 1)
        let missingBytes = missing.reduce(Int64(0)) { $0 + $1.size }
        let progress = LoadProgress(
            sink: request.progress("download", missingBytes, missing.count, "objects"), journal: journal, region: request.regionId,
            requiredResources: requiredObjects, requiredBytes: requiredBytes,
            completedResources: storedCount, completedBytes: requiredBytes - missingBytes)
        let fetched: [ObjectFetch]
        do {
            fetched = try await client.fetchObjects(missing, partialDirectory: partialDirectory,
                                                    received: { progress.received($0) },
                                                    completed: { _, r in progress.completed(resumedBytes: r.resumedFrom) })
        } catch {
            progress.cancel()
            throw error
        }
        progress.finish()
        journal.close()

        // Install, under the lock.
        let store = try TileStore.open(path, access: .write, quiet: quiet)
        let outcome = try RegionInstaller(store: store, request: request, plan: plan, tileset: tilesetIndex, routing: routingIndex,
                                          partialDirectory: partialDirectory).install(style: style)
        try store.record(.regionLoadFinished, region: request.regionId, data: [
            "tilesetVersion": tilesetIndex.map { .string($0.version) } ?? .null,
            "routingVersion": routingIndex.map { .string($0.dataVersion) } ?? .null,
            "objectsFetched": .int(fetched.filter { !$0.alreadyComplete }.count),
            "bytesFetched": .int(Int(fetched.reduce(Int64(0)) { $0 + $1.bytesReceived })),
        ])
        store.close()
        for m in missing { unlink((partialDirectory as NSString).appendingPathComponent(m.sha256 + ".part")) }

        return LoadReport(
            region: request.regionId, repository: client.location.description,
            versions: .init(tileset: request.tileset, tilesetVersion: tilesetIndex?.version, routingProfile: request.routingProfile,
                            routingVersion: routingIndex?.dataVersion, style: request.style),
            objectsRequired: requiredObjects, objectsAlreadyStored: storedCount,
            objectsFetched: fetched.filter { $0.bytesReceived > 0 }.count, objectsResumed: fetched.filter { $0.resumedFrom > 0 }.count,
            bytesRequired: requiredBytes, bytesFetched: fetched.reduce(0) { $0 + $1.bytesReceived },
            bytesResumed: fetched.reduce(0) { $0 + $1.resumedFrom }, requests: fetched.reduce(0) { $0 + $1.requests },
            indexNotModified: notModified, install: outcome, seconds: MonotonicClock.seconds(since: started))
    }
}
