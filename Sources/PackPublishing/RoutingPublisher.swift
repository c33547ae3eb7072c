import Foundation
import OffgridCore
import OSMPBF
import PackRepository
import RoutingProfile
import RoutingTiles
import TileMath

/// `tilepack-build publish routing`: every routing tile of an extract as an object (its raw
/// bytes, exactly the `<id>.tile` file `tilepack-unpack` writes) under the extract's data version.
/// Tiles carry no data version, so a tile whose roads did not change is the same object in
/// every version. Tiles serve every mode (`RoutingTagSchema`): the index is published under
/// the profile name `all`.
public enum RoutingPublisher {
    public static func publish(input: String, grid: RoutingGrid, repository: String, threads: Int,
                               onWait: () -> Void = {}, progress: ProgressFactory) throws -> PublishSummary {
        let started = MonotonicClock.nanoseconds()
        let profileName = RoutingTagSchema.name
        let reader = try PBFReader(path: input, threads: threads)
        let sink = progress("publish routing", reader.fileSize, 0, "tiles")
        let result: RoutingTileBuild.Result
        do {
            result = try RoutingTileBuild(grid: grid).run(reader, selected: nil) { sink.update(bytesDone: $0, itemsDone: 0) }
        } catch let e as RoutingTileBuild.BuildError {
            sink.cancel()
            throw InputError(file: input, e.description)
        } catch {
            sink.cancel()
            throw error
        }
        guard !result.tiles.isEmpty else {
            sink.cancel()
            throw InputError(file: input, "no routable way in the extract: nothing to publish")
        }
        let dataVersion = try checkedName(result.dataVersion, "the data version", file: input)

        let writer: RepositoryWriter
        do { writer = try RepositoryWriter(root: repository, onWait: onWait) } catch { sink.cancel(); throw error }
        defer { writer.close() }
        var entries: [RepositoryEntry] = []
        var bbox = grid.bbox(of: result.tiles[0].id)
        do {
            for (i, t) in result.tiles.enumerated() {
                let sha = SHA256.hex(SHA256.hash(t.raw))
                try writer.putObject(parts: [t.raw[...]], sha256: sha)
                entries.append(RepositoryEntry(key: RoutingVersionIndex.key(tileId: t.id), sha256: sha, size: t.raw.count))
                bbox = bbox.union(grid.bbox(of: t.id))
                sink.update(bytesDone: reader.fileSize, itemsDone: i + 1)
            }
        } catch {
            sink.cancel()
            throw error
        }
        FaultPoint.reached("publish-objects-written")
        let index = RoutingVersionIndex(profile: profileName, profileHash: RoutingTagSchema.hash, dataVersion: dataVersion,
                                        gridDegrees: grid.degrees, bbox: [bbox.minLon, bbox.minLat, bbox.maxLon, bbox.maxLat],
                                        entries: entries)
        let outcome = try writer.commit(index)
        sink.finish(extra: ["objectsWritten": .int(writer.counts.objectsWritten)])
        return PublishSummary(kind: "routing", repository: repository, name: profileName, version: dataVersion, outcome: outcome,
                              index: RepositoryLayout.routingIndexPath(profile: profileName, dataVersion: dataVersion),
                              entries: index.entries, counts: writer.counts, started: started)
    }
}
