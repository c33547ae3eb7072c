import Foundation
import TileMath

/// The exact web-mercator tile cover of a `Region`: a tile is in the cover at its zoom iff
/// the region (closed: polygon interiors and rings, circles and corridors with their rims) meets
/// the tile's OPEN interior — touching a tile only along its border or at a corner does not
/// select it, the rule the routing grid uses too (a tile-aligned bbox selects exactly the tiles
/// inside it). For circles and corridors that is: the great-circle distance from the tile to the
/// centre or line is less than the radius or buffer.
///
/// The cover is computed by quadtree subdivision from zoom 0. Each shape classifies a tile as
/// outside, inside (the whole tile, so every descendant is in the cover without further tests)
/// or partial (in the cover; its children are tested). Polygons pass each child only the
/// boundary segments that cross its parent, and decide tiles no boundary crosses with one
/// point-in-polygon test against a latitude-banded edge index; corridors pass down the segments
/// within reach. Polygon tests use exact orientation predicates (`PlanarPredicates`), so the
/// polygon cover never depends on rounding; distance tests are closed-form (`Sphere`).
public struct TileCover: Sendable {
    public let region: Region
    let shapes: [PreparedShape]

    public init(_ region: Region) {
        self.region = region
        shapes = region.shapes.map(PreparedShape.init)
    }

    // MARK: - Public queries

    /// The cover at each zoom of `zooms`, each sorted by (x, y); element i is zoom lowerBound + i.
    public func tiles(zooms: ClosedRange<Int>) -> [[TileCoordinate]] {
        var out = [[TileCoordinate]](repeating: [], count: zooms.count)
        walk(maxZoom: zooms.upperBound, inside: { z, x, y in
            for zz in max(z, zooms.lowerBound)...zooms.upperBound {
                let k = zz - z
                let i = zz - zooms.lowerBound
                let xs = (x << k)..<((x + 1) << k), ys = (y << k)..<((y + 1) << k)
                out[i].reserveCapacity(out[i].count + xs.count * ys.count)
                for xx in xs { for yy in ys { out[i].append(TileCoordinate(z: zz, x: xx, y: yy)) } }
            }
        }, selected: { z, x, y, _ in
            if z >= zooms.lowerBound { out[z - zooms.lowerBound].append(TileCoordinate(z: z, x: x, y: y)) }
            return true
        })
        for i in out.indices { out[i].sort() }
        return out
    }

    /// The cover at one zoom, sorted.
    public func tiles(zoom: Int) -> [TileCoordinate] { tiles(zooms: zoom...zoom)[0] }

    /// The number of tiles in the cover at `zoom`, without listing them (saturating at Int.max).
    public func count(zoom: Int) -> Int { countAncestors(atZoom: zoom, ofCoverAt: zoom) }

    /// The tiles at zoom `a` having a descendant (or themselves, when m = a) in the cover at
    /// zoom m ≥ a, sorted. These are the pack parents of a band starting at a.
    public func ancestors(atZoom a: Int, ofCoverAt m: Int) -> [TileCoordinate] {
        precondition(a <= m, "ancestors(atZoom:ofCoverAt:) needs a ≤ m")
        var out: [TileCoordinate] = []
        walk(maxZoom: a, inside: { z, x, y in
            let k = a - z
            for xx in (x << k)..<((x + 1) << k) { for yy in (y << k)..<((y + 1) << k) { out.append(TileCoordinate(z: a, x: xx, y: yy)) } }
        }, selected: { z, x, y, active in
            guard z == a else { return true }
            if a == m || self.hasSelectedDescendant(z: z, x: x, y: y, active: active, atZoom: m) {
                out.append(TileCoordinate(z: a, x: x, y: y))
            }
            return false
        })
        out.sort()
        return out
    }

    /// `ancestors(atZoom:ofCoverAt:).count` without listing them (saturating).
    public func countAncestors(atZoom a: Int, ofCoverAt m: Int) -> Int {
        precondition(a <= m, "countAncestors(atZoom:ofCoverAt:) needs a ≤ m")
        var total = 0
        walk(maxZoom: a, inside: { z, _, _ in
            let k = a - z
            let n = k >= 31 ? Int.max : 1 << (2 * k)
            total = total > Int.max - n ? Int.max : total + n
        }, selected: { z, x, y, active in
            guard z == a else { return true }
            if a == m || self.hasSelectedDescendant(z: z, x: x, y: y, active: active, atZoom: m) {
                total = total == Int.max ? total : total + 1
            }
            return false
        })
        return total
    }

    /// Whether one tile is in the cover (the region meets its open interior).
    public func contains(_ t: TileCoordinate) -> Bool {
        let r = TileCover.rect(z: t.z, x: t.x, y: t.y)
        for (i, s) in shapes.enumerated() {
            let (rel, _) = s.classify(r, candidates: s.allCandidates, shapeIndex: i)
            if rel != .outside { return true }
        }
        return false
    }

    // MARK: - The subdivision

    struct Active {
        var shape: Int
        var candidates: [Int32]
    }

    static func rect(z: Int, x: Int, y: Int) -> Sphere.Rect {
        Sphere.Rect(lon0: WebMercator.lonEdge(x, zoom: z), lat0: WebMercator.latEdge(y + 1, zoom: z),
                    lon1: WebMercator.lonEdge(x + 1, zoom: z), lat1: WebMercator.latEdge(y, zoom: z))
    }

    /// Depth-first over the quadtree down to `maxZoom`: `inside` gets tiles wholly in the region
    /// (not descended), `selected` gets the other tiles of the cover and says whether to descend.
    func walk(maxZoom: Int, inside: (Int, Int, Int) -> Void, selected: (Int, Int, Int, [Active]) -> Bool) {
        let root = shapes.enumerated().map { Active(shape: $0.offset, candidates: $0.element.allCandidates) }
        func visit(_ z: Int, _ x: Int, _ y: Int, _ active: [Active]) {
            let r = TileCover.rect(z: z, x: x, y: y)
            var next: [Active] = []
            next.reserveCapacity(active.count)
            for a in active {
                let (rel, candidates) = shapes[a.shape].classify(r, candidates: a.candidates, shapeIndex: a.shape)
                switch rel {
                case .inside:
                    inside(z, x, y)
                    return
                case .partial:
                    next.append(Active(shape: a.shape, candidates: candidates))
                case .outside:
                    break
                }
            }
            guard !next.isEmpty else { return }
            guard selected(z, x, y, next), z < maxZoom else { return }
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                visit(z + 1, 2 * x + dx, 2 * y + dy, next)
            }
        }
        visit(0, 0, 0, root)
    }

    /// Whether some descendant of a selected tile at zoom m is in the cover.
    func hasSelectedDescendant(z: Int, x: Int, y: Int, active: [Active], atZoom m: Int) -> Bool {
        guard z < m else { return true }
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let cz = z + 1, cx = 2 * x + dx, cy = 2 * y + dy
            let r = TileCover.rect(z: cz, x: cx, y: cy)
            var next: [Active] = []
            for a in active {
                let (rel, candidates) = shapes[a.shape].classify(r, candidates: a.candidates, shapeIndex: a.shape)
                if rel == .inside { return true }
                if rel == .partial { next.append(Active(shape: a.shape, candidates: candidates)) }
            }
            if !next.isEmpty && hasSelectedDescendant(z: cz, x: cx, y: cy, active: next, atZoom: m) { return true }
        }
        return false
    }
}

enum Relation { case outside, partial, inside }

/// A shape with what its tests need precomputed.
enum PreparedShape: Sendable {
    case polygon(PreparedPolygon)
    case circle(lon: Double, lat: Double, radius: Double)
    case corridor(PreparedCorridor)

    init(_ shape: Region.Shape) {
        switch shape {
        case .polygon(let p): self = .polygon(PreparedPolygon(p))
        case .circle(let c, let r): self = .circle(lon: c.lon, lat: c.lat, radius: r / earthMeanRadiusMeters)
        case .corridor(let line, let b): self = .corridor(PreparedCorridor(line, radius: b / earthMeanRadiusMeters))
        }
    }

    var allCandidates: [Int32] {
        switch self {
        case .polygon(let p): return Array(0..<Int32(p.ax.count))
        case .circle: return []
        case .corridor(let c): return Array(0..<Int32(c.arcs.count))
        }
    }

    @inline(__always)
    func classify(_ r: Sphere.Rect, candidates: [Int32], shapeIndex: Int) -> (Relation, [Int32]) {
        switch self {
        case .polygon(let p): return p.classify(r, candidates: candidates)
        case .circle(let lon, let lat, let radius):
            let d = Sphere.distance(lon: lon, lat: lat, to: r)
            guard d < radius else { return (.outside, []) }
            if let far = Sphere.maxDistanceIfCornersDecide(lon: lon, lat: lat, to: r), far <= radius { return (.inside, []) }
            return (.partial, [])
        case .corridor(let c): return c.classify(r, candidates: candidates)
        }
    }
}

/// A polygon's segments as flat arrays, with a latitude-banded index for point-in-polygon tests.
struct PreparedPolygon: Sendable {
    var ax: [Double] = [], ay: [Double] = [], bx: [Double] = [], by: [Double] = []
    let minLat: Double, maxLat: Double
    let bandCount: Int
    let bandHeight: Double
    var bandStart: [Int32] = []
    var bandSegments: [Int32] = []

    init(_ polygon: GeoPolygon) {
        for ring in polygon.rings {
            for i in 0..<(ring.count - 1) {
                ax.append(ring[i].lon); ay.append(ring[i].lat)
                bx.append(ring[i + 1].lon); by.append(ring[i + 1].lat)
            }
        }
        minLat = polygon.bbox.minLat
        maxLat = polygon.bbox.maxLat
        let n = ax.count
        bandCount = max(1, min(1 << 16, n / 2))
        bandHeight = maxLat > minLat ? (maxLat - minLat) / Double(bandCount) : 1
        // Counting sort of segments into every band their latitude span reaches.
        var counts = [Int32](repeating: 0, count: bandCount + 1)
        var spans: [(Int, Int)] = []
        spans.reserveCapacity(n)
        for i in 0..<n {
            let lo = band(min(ay[i], by[i])), hi = band(max(ay[i], by[i]))
            spans.append((lo, hi))
            for b in lo...hi { counts[b + 1] += 1 }
        }
        for b in 0..<bandCount { counts[b + 1] += counts[b] }
        bandStart = counts
        var fill = counts
        bandSegments = [Int32](repeating: 0, count: Int(counts[bandCount]))
        for i in 0..<n {
            for b in spans[i].0...spans[i].1 {
                bandSegments[Int(fill[b])] = Int32(i)
                fill[b] += 1
            }
        }
    }

    @inline(__always) func band(_ lat: Double) -> Int {
        let b = Int(((lat - minLat) / bandHeight).rounded(.down))
        return min(max(b, 0), bandCount - 1)
    }

    /// Even-odd rule; `(px, py)` must not lie on a ring.
    func contains(_ px: Double, _ py: Double) -> Bool {
        guard py >= minLat, py <= maxLat else { return false }
        let b = band(py)
        var inside = false
        for k in Int(bandStart[b])..<Int(bandStart[b + 1]) {
            let i = Int(bandSegments[k])
            if (ay[i] > py) != (by[i] > py), PlanarPredicates.crossesRightOf(ax[i], ay[i], bx[i], by[i], px, py) {
                inside.toggle()
            }
        }
        return inside
    }

    func classify(_ r: Sphere.Rect, candidates: [Int32]) -> (Relation, [Int32]) {
        var boundary: [Int32] = []
        for c in candidates {
            let i = Int(c)
            if PlanarPredicates.segmentMeetsOpenBox(ax[i], ay[i], bx[i], by[i], minX: r.lon0, minY: r.lat0, maxX: r.lon1, maxY: r.lat1) {
                boundary.append(c)
            }
        }
        if !boundary.isEmpty { return (.partial, boundary) }
        // No ring passes through the open tile: it is wholly inside or wholly outside.
        return contains((r.lon0 + r.lon1) / 2, (r.lat0 + r.lat1) / 2) ? (.inside, []) : (.outside, [])
    }
}

/// A line's segments as great-circle arcs with latitude/longitude reach for quick rejection.
struct PreparedCorridor: Sendable {
    let arcs: [Sphere.Arc]
    /// Per arc: its lon/lat box grown by the buffer (longitude growth for the farthest latitude).
    let reach: [(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double)]
    let radius: Double

    init(_ line: [GeoPoint], radius: Double) {
        self.radius = radius
        var arcs: [Sphere.Arc] = []
        var reach: [(Double, Double, Double, Double)] = []
        let dLat = radius / Sphere.degrees * 1.000001 + 1e-9
        for i in 0..<(line.count - 1) {
            let a = Sphere.Arc(lonA: line[i].lon, latA: line[i].lat, lonB: line[i + 1].lon, latB: line[i + 1].lat)
            arcs.append(a)
            let far = max(abs(a.minLat), abs(a.maxLat)) + dLat
            if far >= 89.999 {
                reach.append((-540, a.minLat - dLat, 540, a.maxLat + dLat))
            } else {
                let dLon = dLat / cos(far * Sphere.degrees) * 1.000001
                reach.append((a.minLon - dLon, a.minLat - dLat, a.maxLon + dLon, a.maxLat + dLat))
            }
        }
        self.arcs = arcs
        self.reach = reach
    }

    @inline(__always) func mayReach(_ i: Int, _ r: Sphere.Rect) -> Bool {
        let q = reach[i]
        guard q.minLat <= r.lat1, q.maxLat >= r.lat0 else { return false }
        if q.minLon <= r.lon1 && q.maxLon >= r.lon0 { return true }
        // Reach that wraps past ±180.
        if q.minLon < -180 && q.minLon + 360 <= r.lon1 { return true }
        if q.maxLon > 180 && q.maxLon - 360 >= r.lon0 { return true }
        return false
    }

    func classify(_ r: Sphere.Rect, candidates: [Int32]) -> (Relation, [Int32]) {
        var keep: [Int32] = []
        var nearest = Double.infinity, nearestArc = -1
        for c in candidates {
            let i = Int(c)
            guard mayReach(i, r) else { continue }
            let d = arcs[i].distance(to: r)
            if d < radius {
                keep.append(c)
                if d < nearest { nearest = d; nearestArc = i }
            }
        }
        guard !keep.isEmpty else { return (.outside, []) }
        // Wholly inside when the tile fits in the circle around the arc point nearest its centre.
        let centre = Sphere.vector(lon: (r.lon0 + r.lon1) / 2, lat: (r.lat0 + r.lat1) / 2)
        for i in [nearestArc] + keep.prefix(3).map(Int.init) {
            let f = arcs[i].nearestPoint(to: centre).lonLat
            if let far = Sphere.maxDistanceIfCornersDecide(lon: f.lon, lat: f.lat, to: r), far <= radius {
                return (.inside, [])
            }
        }
        return (.partial, keep)
    }
}
