import OffgridCore
import TileMath

/// `tilepack-build maps --cover`: the exact tile cover as NDJSON `[x,y,z]` lines (mercantile's
/// format), zoom by zoom; with `events`, a `done` event with the count and the time the cover
/// took on stderr.
enum CoverPrinter {
    static let maxTiles = 50_000_000

    static func print(_ cover: TileCover, zooms: ClosedRange<Int>, events: Bool) throws {
        var count = 0
        for z in zooms {
            let n = cover.count(zoom: z)
            count = count > Int.max - n ? Int.max : count + n
        }
        guard count <= maxTiles else {
            throw InputError("cover too large to list: \(count) tiles > \(maxTiles); use a smaller region or zoom range")
        }
        let t0 = MonotonicClock.nanoseconds()
        let tiles = cover.tiles(zooms: zooms)
        let seconds = MonotonicClock.seconds(since: t0)
        var out = ""
        out.reserveCapacity(1 << 20)
        for level in tiles {
            for t in level {
                out += "[\(t.x),\(t.y),\(t.z)]\n"
                if out.utf8.count > 1 << 20 { StdIO.out(out); out.removeAll(keepingCapacity: true) }
            }
        }
        StdIO.out(out)
        if events {
            let total = tiles.reduce(0) { $0 + $1.count }
            StdIO.err("{\"event\":\"done\",\"tiles\":\(total),\"coverSeconds\":\(seconds)}\n")
        }
    }
}
