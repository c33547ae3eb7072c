import OffgridCore
import Foundation
import TileMath
import TileSources

/// What to build for a region (the CLI flags of `tilepack-build maps`).
public struct MapBuildOptions {
    public var zooms: ClosedRange<Int> = 0...16
    public var bands: ZoomBands = .standard
    public var maxPacks = 750
    /// The legacy tile ceiling (e.g. 6,000): tiles the packs would hold.
    public var maxTiles: Int?
    public var regionId = "region"
    /// Any JSON value the user attaches to the region.
    public var userMetadata: JSONValue?
    public var ttlDays: Double?
    public var pixelRatio: Double = 1
    public var styleURI: String?
    /// "Now" for `--ttl` expiries, seconds since 1970 (SOURCE_DATE_EPOCH when set, for
    /// reproducible manifests).
    public var now: Double = {
        if let s = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let v = Double(s) { return v }
        return Date().timeIntervalSince1970
    }()

    public init() {}
}

/// One pack of the plan: its identity and the source tiles it will hold.
public struct PlannedPack {
    public var header: MapPackHeader
    public var tiles: [TileIndexEntry]
    public var tileBytes: Int { tiles.reduce(0) { $0 + $1.length } }
}

/// The zooms a build covers: requested, limited to the source's, widened to whole bands.
public struct ZoomPlan: Sendable {
    public var requested: ClosedRange<Int>
    public var source: ClosedRange<Int>
    /// requested ∩ source.
    public var effective: ClosedRange<Int>
    /// `effective` widened to whole bands.
    public var widened: ClosedRange<Int>
    public var bands: [ZoomBand]

    public init(requested: ClosedRange<Int>, source: ClosedRange<Int>, bands: ZoomBands) throws {
        self.requested = requested
        self.source = source
        guard requested.overlaps(source) else {
            throw GeometryError("the source has zooms \(source.lowerBound)-\(source.upperBound); the requested \(requested.lowerBound)-\(requested.upperBound) has none of them")
        }
        effective = requested.clamped(to: source)
        self.bands = try bands.bands(for: effective)
        widened = self.bands.first!.minZoom...self.bands.last!.maxZoom
    }

    /// The zoom whose cover decides a band's packs: the band's first zoom, or the first
    /// requested zoom when the band starts before it.
    public func coverZoom(_ band: ZoomBand) -> Int { max(band.minZoom, effective.lowerBound) }
}

/// The packs a region needs from a source, counted and checked before anything is built.
public struct MapBuildPlan {
    public var zoomPlan: ZoomPlan
    /// Packs the region's cover asks for, per band (limits apply to these).
    public var candidatePacks: [(band: ZoomBand, count: Int)]
    /// Packs holding at least one source tile, in band then parent order.
    public var packs: [PlannedPack]
    public var emptyPacks: Int
    public var tiles: Int { packs.reduce(0) { $0 + $1.tiles.count } }
    public var tileBytes: Int { packs.reduce(0) { $0 + $1.tileBytes } }
}

public enum MapPackBuilder {
    public static let manifestFormat = "offgrid-map-region"

    /// Counts the packs per band from the geometry alone and refuses more than `maxPacks`
    /// before the source's tiles are looked at.
    public static func checkPackLimit(cover: TileCover, zoomPlan: ZoomPlan, maxPacks: Int) throws -> [(band: ZoomBand, count: Int)] {
        var counts: [(band: ZoomBand, count: Int)] = []
        var total = 0
        for band in zoomPlan.bands {
            let n = cover.countAncestors(atZoom: band.minZoom, ofCoverAt: zoomPlan.coverZoom(band))
            counts.append((band, n))
            total = total > Int.max - n ? Int.max : total + n
        }
        if total > maxPacks {
            let detail = counts.map { "band \($0.band): \($0.count)" }.joined(separator: ", ")
            throw InputError("too many packs: \(total) > \(maxPacks) (\(detail)); use a smaller region or zoom range, or raise --max-packs")
        }
        return counts
    }

    /// The full plan: pack parents and the source tiles of each (index only), then the tile
    /// ceiling. Nothing is written.
    public static func plan(source: TileSource, region: Region, options: MapBuildOptions) throws -> MapBuildPlan {
        let info = source.info
        let zoomPlan: ZoomPlan
        do {
            zoomPlan = try ZoomPlan(requested: options.zooms, source: info.minZoom...info.maxZoom, bands: options.bands)
        } catch let e as GeometryError {
            throw InputError(file: source.path, e.message)
        }
        let cover = TileCover(region)
        let candidates = try checkPackLimit(cover: cover, zoomPlan: zoomPlan, maxPacks: options.maxPacks)
        var packs: [PlannedPack] = []
        var empty = 0
        let bandParents = zoomPlan.bands.map { cover.ancestors(atZoom: $0.minZoom, ofCoverAt: zoomPlan.coverZoom($0)) }
        // The deepest band, mostly the most tiles, is announced first: a source that reads its
        // whole index for it may keep the other bands' zooms from the same read.
        for (band, parents) in zip(zoomPlan.bands, bandParents).reversed() {
            try source.prepareIndex(parents: parents.count, zooms: band.zooms)
        }
        for (band, parents) in zip(zoomPlan.bands, bandParents) {
            for parent in parents {
                var tiles: [TileIndexEntry] = []
                for z in band.minZoom...band.maxZoom where z >= info.minZoom && z <= info.maxZoom {
                    tiles += try source.index(under: parent, atZoom: z)
                }
                if tiles.isEmpty {
                    empty += 1
                    continue
                }
                let header = MapPackHeader(band: band, parent: parent, tilesetId: info.name,
                                           tileType: info.tileType, tileCompression: info.tileCompression)
                packs.append(PlannedPack(header: header, tiles: tiles))
            }
        }
        let plan = MapBuildPlan(zoomPlan: zoomPlan, candidatePacks: candidates, packs: packs, emptyPacks: empty)
        if let maxTiles = options.maxTiles, plan.tiles > maxTiles {
            throw InputError("too many tiles: \(plan.tiles) > \(maxTiles) (in \(packs.count) packs); use a smaller region or zoom range, or raise --max-tiles")
        }
        return plan
    }

    /// What one written pack holds (a row of the region manifest).
    public struct BuiltPack {
        public var header: MapPackHeader
        public var stats: MapPackWriter.Stats
        public var sha256: String
    }

    /// Reads every planned pack's tiles from the source, encodes the packs and writes them with
    /// `region.json` (and `extraFiles`) into `output`, replacing it atomically.
    public static func build(plan: MapBuildPlan, source: TileSource, region: Region, options: MapBuildOptions,
                             output: String, extraFiles: [(name: String, bytes: [UInt8])] = [],
                             threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                             progress: any ProgressSink) throws -> [BuiltPack] {
        let dir = try OutputDirectory(path: output, marker: manifestFormat)
        do {
            // Packs are independent: workers (one source handle each) take packs in order, encode,
            // hash and write them; results land in plan order.
            let workers = max(1, min(threads, plan.packs.count))
            for band in Set(plan.packs.map(\.header.band)) { try dir.makeDirectory("packs/\(band)") }
            var built = [BuiltPack?](repeating: nil, count: plan.packs.count)
            var bytesDone: Int64 = 0
            var tilesDone = 0
            let lock = NSLock()
            let sources: [TileSource] = try (0..<workers).map { $0 == 0 ? source : try TileSources.open(path: source.path) }
            let scratch = (0..<workers).map { _ in ScratchBuffer() }   // one per worker, reused across its packs
            try Parallel.forEach(count: plan.packs.count, threads: workers) { w, i in
                let pack = try buildPack(plan.packs[i], source: sources[w], scratch: &scratch[w].bytes)
                try dir.write(pack.header.relativePath, parts: [pack.prefix[...]] + pack.blobs)
                lock.lock()
                built[i] = pack.built
                bytesDone += Int64(pack.built.stats.tileBytes)
                tilesDone += pack.built.stats.tiles
                progress.update(bytesDone: bytesDone, itemsDone: tilesDone)
                lock.unlock()
            }
            let done = built.map { $0! }
            let manifest = MapRegionManifest(plan: plan, built: done, source: source, region: region, options: options)
            try dir.write("region.json", Array((try JSONEncoding.string(manifest, pretty: true) + "\n").utf8))
            for file in extraFiles { try dir.write(file.name, file.bytes) }
            try dir.commit()
            return done
        } catch {
            dir.abandon()
            throw error
        }
    }

    /// Reads one pack's tiles (into `scratch`), encodes and hashes the pack.
    static func buildPack(_ pack: PlannedPack, source: TileSource, scratch: inout [UInt8]) throws
        -> (header: MapPackHeader, prefix: [UInt8], blobs: [ArraySlice<UInt8>], built: BuiltPack) {
        scratch.removeAll(keepingCapacity: true)
        var spans: [(TileCoordinate, Range<Int>)] = []
        spans.reserveCapacity(pack.tiles.count)
        let zooms = Set(pack.tiles.map(\.coordinate.z)).sorted()
        for z in zooms {
            try source.read(under: pack.header.parent, atZoom: z) { c, bytes in
                guard bytes.count <= MapPackFormat.maxTileBytes else {
                    throw InputError(file: source.path, "tile \(c) has \(bytes.count) bytes, more than the \(MapPackFormat.maxTileBytes) accepted")
                }
                let start = scratch.count
                scratch.append(contentsOf: bytes)
                spans.append((c, start..<scratch.count))
            }
        }
        guard spans.count == pack.tiles.count else {
            throw InputError(file: source.path, "the source changed while it was read (\(spans.count) tiles under \(pack.header.parent) at zooms \(zooms), the index had \(pack.tiles.count))")
        }
        let buffer = scratch
        let tiles = spans.map { ($0.0, buffer[$0.1]) }
        let (prefix, blobs, stats) = MapPackWriter.encodeParts(header: pack.header, tiles: tiles)
        return (pack.header, prefix, blobs, BuiltPack(header: pack.header, stats: stats, sha256: SHA256.hex(parts: [prefix[...]] + blobs)))
    }

    // MARK: - Manifest

    /// ISO 8601 expiry: `--ttl` days from now, else the source's own `expires`, else nil.
    static func expiry(source: TileSource, options: MapBuildOptions) -> String? {
        if let ttl = options.ttlDays { return ISO8601.string(Int64((options.now + ttl * 86_400).rounded(.down))) }
        return source.info.expires
    }
}

/// A worker's reusable tile buffer (a class, so each worker mutates only its own).
public final class ScratchBuffer {
    public var bytes: [UInt8] = []
    public init() {}
}
