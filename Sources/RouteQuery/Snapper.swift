import Foundation
import RoutingGraph
import TileMath
import OffgridCore

/// Finds the nearest point on a road *segment* (not the nearest node) for a location, the way
/// OSRM's nearest/phantom search does, over the graph file's snapping grid.
///
/// The grid lists, per cell, the edges with a segment whose bounding box reaches into it. A
/// query visits cells ring by ring around the point, tests every segment of every edge it
/// meets once, and stops when the next ring cannot hold anything nearer than what it has.
/// Closest points are found in a local equirectangular projection around the query; the
/// distance reported is then the haversine one, so it agrees with the tiles' lengths.
///
/// Main component: if the nearest usable road lies on a small strongly connected component
/// (a car park loop, a road cut off by the extract border), routes from or to it mostly fail.
/// `snap` then takes the nearest road on the main network (component 0) instead, provided it
/// is not much farther: within the radius when one is given, otherwise no more than
/// `max(1000 m, 3 × nearest distance)` beyond the nearest (and within the 5 km cap). OSRM
/// returns both phantoms and lets routing pick; `nearestAndMain` gives callers that pair.
///
/// Not thread-safe: a Snapper keeps per-query scratch (the set of edges already tested) so a
/// query allocates nothing once that set has grown to the largest query's size. Use one
/// Snapper per thread; they share the mapped file. Invalid coordinates (not finite, outside
/// ±180/±90) snap to nothing: validate them first to report them as such.
public final class Snapper {
    /// Without a radius, nothing farther than this is a match (the caller reports NoSegment).
    public static let defaultSearchCapMeters = 5_000.0
    /// The main-network road may be this much farther than the nearest (isolated) road…
    public static let mainComponentExtraMeters = 1_000.0
    /// …or this many times the nearest distance farther, whichever allows more.
    public static let mainComponentExtraFactor = 3.0

    public let file: GraphFile
    public let edgeCount: Int
    let cellFirst: UnsafeBufferPointer<UInt32>
    let cellEdges: UnsafeBufferPointer<UInt32>
    let edgeShapeFirst: UnsafeBufferPointer<UInt32>
    let edgeLengthCm: UnsafeBufferPointer<UInt32>
    let edgeDirectionRank: UnsafeBufferPointer<UInt32>
    let rankComponent: UnsafeBufferPointer<UInt16>
    let shapeLatE7: UnsafeBufferPointer<Int32>
    let shapeLonE7: UnsafeBufferPointer<Int32>
    let gridMinLat: Double, gridMinLon: Double, cellDegrees: Double
    let rows: Int, columns: Int

    /// Edges already tested in the current query (an edge is listed in every cell it crosses).
    private let tested = EdgeVisitSet()

    /// Reads the grid, shape, edge and rank sections once (as views into the mapped file) and
    /// checks their lengths, so a damaged file is refused here rather than read out of bounds.
    public init(file: GraphFile) throws {
        self.file = file
        edgeCount = file.scalar(.edgeCount)
        cellFirst = file.array(.gridCellFirst)
        cellEdges = file.array(.gridCellEdges)
        edgeShapeFirst = file.array(.edgeShapeFirst)
        edgeLengthCm = file.array(.edgeLengthCm)
        edgeDirectionRank = file.array(.edgeDirectionRank)
        rankComponent = file.array(.rankComponent)
        shapeLatE7 = file.array(.shapeLatE7)
        shapeLonE7 = file.array(.shapeLonE7)
        rows = file.scalar(.gridRows)
        columns = file.scalar(.gridColumns)
        let cellE7 = file.scalar(.gridCellE7)
        gridMinLat = Double(file.scalar(.gridMinLatE7)) * 1e-7
        gridMinLon = Double(file.scalar(.gridMinLonE7)) * 1e-7
        cellDegrees = Double(cellE7) * 1e-7
        func bad(_ what: String) -> InputError { InputError(file: file.path, "snapping: \(what)") }
        guard cellE7 > 0, rows > 0, columns > 0, rows <= Int(Int32.max) / columns else { throw bad("bad grid \(columns) × \(rows) of \(cellE7)") }
        guard cellFirst.count == rows * columns + 1 else { throw bad("grid has \(cellFirst.count) offsets for \(rows * columns) cells") }
        guard edgeShapeFirst.count == edgeCount + 1, edgeLengthCm.count == edgeCount, edgeDirectionRank.count == 2 * edgeCount,
              shapeLatE7.count == shapeLonE7.count else { throw bad("edge and shape sections disagree in length") }
    }

    /// The snapped location, or nil when no usable road lies within `radiusMeters` (the 5 km
    /// cap when nil; `.infinity` for no limit). `bearing` keeps only travel directions within
    /// ±range of it (a range of 180 or more keeps all).
    public func snap(lon: Double, lat: Double, radiusMeters: Double? = nil, bearing: (degrees: Double, range: Double)? = nil,
                     preferMainComponent: Bool = true) -> SnapCandidate? {
        guard let pair = nearestAndMain(lon: lon, lat: lat, radiusMeters: radiusMeters, bearing: bearing,
                                        searchMainComponent: preferMainComponent) else { return nil }
        if preferMainComponent, let main = pair.main { return main }
        return pair.nearest
    }

    /// The nearest usable road, and, when that is not on the main network, the nearest one that
    /// is and that the main-component rule accepts (nil if none). With `searchMainComponent`
    /// false only the nearest is searched.
    public func nearestAndMain(lon: Double, lat: Double, radiusMeters: Double? = nil, bearing: (degrees: Double, range: Double)? = nil,
                               searchMainComponent: Bool = true) -> (nearest: SnapCandidate, main: SnapCandidate?)? {
        guard let query = SnapQuery(lon: lon, lat: lat, radiusMeters: radiusMeters, bearing: bearing) else { return nil }
        var collector = NearestAndMainCollector(limit: query.limit, radius: radiusMeters, searchMain: searchMainComponent)
        search(query, into: &collector)
        guard let nearest = collector.nearest else { return nil }
        var main: SnapCandidate?
        if searchMainComponent, nearest.component != 0, let m = collector.main,
           m.distance <= Self.mainComponentReach(nearestMeters: nearest.distance, radiusMeters: radiusMeters, limit: query.limit) {
            main = candidate(m)
        }
        return (candidate(nearest), main)
    }

    /// Up to `limit` nearest usable roads within the radius (or cap), one per edge, nearest
    /// first, on any component.
    public func candidates(lon: Double, lat: Double, radiusMeters: Double? = nil, bearing: (degrees: Double, range: Double)? = nil,
                           limit: Int) -> [SnapCandidate] {
        guard limit > 0, let query = SnapQuery(lon: lon, lat: lat, radiusMeters: radiusMeters, bearing: bearing) else { return [] }
        var collector = NearestEdgesCollector(count: limit, limit: query.limit)
        search(query, into: &collector)
        return collector.hits.map(candidate)
    }

    /// How far a main-network road may be and still be preferred over the nearest road.
    public static func mainComponentReach(nearestMeters d: Double, radiusMeters: Double?, limit: Double) -> Double {
        if let radiusMeters { return radiusMeters }
        return min(limit, d + max(mainComponentExtraMeters, mainComponentExtraFactor * d))
    }

    // MARK: - Search

    /// Visits grid cells ring by ring around the query until the collector cannot improve.
    private func search<C: SnapCollector>(_ q: SnapQuery, into collector: inout C) {
        tested.startQuery()
        let qRow = Int(((q.lat - gridMinLat) / cellDegrees).rounded(.down))
        let qColumn = Int(((q.lon - gridMinLon) / cellDegrees).rounded(.down))
        // Rings nearer than this hold no grid cell at all.
        var k = max(0, -qRow, qRow - (rows - 1), -qColumn, qColumn - (columns - 1))
        while true {
            let stop = min(q.limit, collector.usefulDistance)
            let perDegreeLon = q.boundMetersPerDegreeLon(within: stop)
            guard let bound = lowerBound(ring: k, q, qRow, qColumn, perDegreeLon) else { return }
            if max(bound, distanceToGrid(q, perDegreeLon)) > stop { return }
            let r0 = qRow - k, r1 = qRow + k, c0 = qColumn - k, c1 = qColumn + k
            let cLo = max(0, c0), cHi = min(columns - 1, c1)
            if cLo <= cHi {
                if r0 >= 0 && r0 < rows { for c in cLo...cHi { visit(cell: r0 * columns + c, q, &collector) } }
                if k > 0 && r1 >= 0 && r1 < rows { for c in cLo...cHi { visit(cell: r1 * columns + c, q, &collector) } }
            }
            let rLo = max(0, r0 + 1), rHi = min(rows - 1, r1 - 1)
            if k > 0 && rLo <= rHi {
                if c0 >= 0 && c0 < columns { for r in rLo...rHi { visit(cell: r * columns + c0, q, &collector) } }
                if c1 >= 0 && c1 < columns { for r in rLo...rHi { visit(cell: r * columns + c1, q, &collector) } }
            }
            k += 1
        }
    }

    /// A lower bound of the distance from the query to any grid cell in rings ≥ k (the area
    /// outside the square of rings < k), or nil when no grid cell is left there.
    private func lowerBound(ring k: Int, _ q: SnapQuery, _ qRow: Int, _ qColumn: Int, _ perDegreeLon: Double) -> Double? {
        if k == 0 { return 0 }
        var bound = Double.infinity
        if qRow - k + 1 > 0 { bound = min(bound, (q.lat - (gridMinLat + Double(qRow - k + 1) * cellDegrees)) * q.boundMetersPerDegreeLat) }
        if qRow + k - 1 < rows - 1 { bound = min(bound, (gridMinLat + Double(qRow + k) * cellDegrees - q.lat) * q.boundMetersPerDegreeLat) }
        if qColumn - k + 1 > 0 { bound = min(bound, (q.lon - (gridMinLon + Double(qColumn - k + 1) * cellDegrees)) * perDegreeLon) }
        if qColumn + k - 1 < columns - 1 { bound = min(bound, (gridMinLon + Double(qColumn + k) * cellDegrees - q.lon) * perDegreeLon) }
        return bound == .infinity ? nil : max(0, bound)
    }

    private func distanceToGrid(_ q: SnapQuery, _ perDegreeLon: Double) -> Double {
        let maxLat = gridMinLat + Double(rows) * cellDegrees, maxLon = gridMinLon + Double(columns) * cellDegrees
        let dLat = max(0, gridMinLat - q.lat, q.lat - maxLat) * q.boundMetersPerDegreeLat
        let dLon = max(0, gridMinLon - q.lon, q.lon - maxLon) * perDegreeLon
        return (dLat * dLat + dLon * dLon).squareRoot()
    }

    @inline(__always) private func visit<C: SnapCollector>(cell: Int, _ q: SnapQuery, _ collector: inout C) {
        let first = Int(cellFirst[cell]), end = Int(cellFirst[cell + 1])
        guard first <= end, end <= cellEdges.count else { return }
        for i in first..<end {
            let e = Int(cellEdges[i])
            guard e < edgeCount, tested.insert(UInt32(e)) else { continue }
            if let hit = nearestHit(onEdge: e, q, within: min(q.limit, collector.usefulDistance)) { collector.offer(hit) }
        }
    }

    /// The nearest point of edge e usable in some direction (after the bearing filter), if
    /// one lies within `within` metres. Ties keep the earlier segment.
    @inline(__always) private func nearestHit(onEdge e: Int, _ q: SnapQuery, within: Double) -> SnapHit? {
        let s0 = Int(edgeShapeFirst[e]), s1 = Int(edgeShapeFirst[e + 1])
        guard s0 < s1, s1 <= shapeLatE7.count else { return nil }
        let forward = rank(2 * e), backward = rank(2 * e + 1)
        guard forward != UInt32.max || backward != UInt32.max else { return nil }
        var best: SnapHit?
        var bestDistance = within
        // A one-point edge is a zero-length segment from the point to itself.
        let lastStart = s1 - s0 == 1 ? s0 : s1 - 2
        for i in s0...lastStart {
            let j = min(i + 1, s1 - 1)
            let aLat = Double(shapeLatE7[i]) * 1e-7, aLon = Double(shapeLonE7[i]) * 1e-7
            let bLat = Double(shapeLatE7[j]) * 1e-7, bLon = Double(shapeLonE7[j]) * 1e-7
            let (t, squared) = q.projection.closest(aLon: aLon, aLat: aLat, bLon: bLon, bLat: bLat)
            // Projected and great-circle distances differ by under 1 % plus the change of
            // cos(latitude) over the distance; a segment beyond that margin cannot win.
            let reach = bestDistance * (1.01 + q.projectionDrift * bestDistance) + 1
            if squared > reach * reach { continue }
            let lon = aLon + t * (bLon - aLon), lat = aLat + t * (bLat - aLat)
            let d = haversineMeters(q.point, GeoPoint(lon: lon, lat: lat))
            if d > bestDistance || (d == bestDistance && best != nil) { continue }
            var f = forward, b = backward
            if let filter = q.bearing {
                // A repeated point has no direction; its neighbours' segments cover it.
                if shapeLatE7[i] == shapeLatE7[j] && shapeLonE7[i] == shapeLonE7[j] { continue }
                let travel = initialBearingDegrees(from: GeoPoint(lon: aLon, lat: aLat), to: GeoPoint(lon: bLon, lat: bLat))
                if f != UInt32.max && !bearingMatches(travel, filter) { f = UInt32.max }
                if b != UInt32.max && !bearingMatches(travel + 180, filter) { b = UInt32.max }
                if f == UInt32.max && b == UInt32.max { continue }
            }
            let component = min(f == UInt32.max ? UInt32.max : UInt32(rankComponent[Int(f)]),
                                b == UInt32.max ? UInt32.max : UInt32(rankComponent[Int(b)]))
            best = SnapHit(edge: e, shapeIndex: i, t: t, lon: lon, lat: lat, distance: d,
                           forwardRank: f, backwardRank: b, component: component)
            bestDistance = d
        }
        return best
    }

    /// The rank of edge direction `2e + d`, `UInt32.max` when not drivable (or out of range).
    @inline(__always) private func rank(_ direction: Int) -> UInt32 {
        let r = edgeDirectionRank[direction]
        return Int(r) < rankComponent.count ? r : UInt32.max
    }

    /// Completes a hit: offset along the edge (haversine, as the tiles measure) and bearing.
    private func candidate(_ h: SnapHit) -> SnapCandidate {
        let s0 = Int(edgeShapeFirst[h.edge]), s1 = Int(edgeShapeFirst[h.edge + 1])
        func point(_ i: Int) -> GeoPoint { GeoPoint(lon: Double(shapeLonE7[i]) * 1e-7, lat: Double(shapeLatE7[i]) * 1e-7) }
        var before = 0.0
        for i in s0..<h.shapeIndex { before += haversineMeters(point(i), point(i + 1)) }
        let j = min(h.shapeIndex + 1, s1 - 1)
        let along = before + h.t * haversineMeters(point(h.shapeIndex), point(j))
        let length = Double(edgeLengthCm[h.edge])
        // The direction of a repeated point is that of the next (or previous) real segment.
        var a = h.shapeIndex, b = j
        while b + 1 < s1 && point(a) == point(b) { b += 1 }
        while a > s0 && point(a) == point(b) { a -= 1 }
        return SnapCandidate(edge: h.edge, segment: h.shapeIndex - s0, fraction: h.t, lon: h.lon, lat: h.lat,
                             distanceMeters: h.distance, offsetCm: min(length, max(0, along * 100)), edgeLengthCm: length,
                             bearingDegrees: initialBearingDegrees(from: point(a), to: point(b)),
                             forwardRank: h.forwardRank, backwardRank: h.backwardRank, component: h.component)
    }
}

/// A local equirectangular projection around a point: metres east and north of it. Within a
/// few kilometres its distances are within 0.1 % of the great circle — enough to find the
/// closest point of a segment; callers measure the distance to it with haversine.
struct LocalProjection {
    let lon0: Double, lat0: Double
    let metersPerDegreeLon: Double, metersPerDegreeLat: Double

    init(lon: Double, lat: Double) {
        lon0 = lon
        lat0 = lat
        metersPerDegreeLat = earthMeanRadiusMeters * Double.pi / 180
        metersPerDegreeLon = metersPerDegreeLat * cos(lat * Double.pi / 180)
    }

    /// The closest point of segment a → b to the origin: its fraction t along the segment
    /// and its squared projected distance (m²).
    @inline(__always) func closest(aLon: Double, aLat: Double, bLon: Double, bLat: Double) -> (t: Double, squaredMeters: Double) {
        let ax = (aLon - lon0) * metersPerDegreeLon, ay = (aLat - lat0) * metersPerDegreeLat
        let dx = (bLon - aLon) * metersPerDegreeLon, dy = (bLat - aLat) * metersPerDegreeLat
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / lengthSquared)) : 0
        let px = ax + t * dx, py = ay + t * dy
        return (t, px * px + py * py)
    }
}

/// One query's fixed inputs.
struct SnapQuery {
    let lon: Double, lat: Double
    let point: GeoPoint
    let limit: Double
    let bearing: (degrees: Double, range: Double)?
    let projection: LocalProjection
    /// Metres per degree of latitude, a little under, so it never overestimates a distance.
    let boundMetersPerDegreeLat: Double
    /// Relative error of the local projection per metre from the query: 2 tan(lat) / R.
    let projectionDrift: Double

    /// Metres per degree of longitude that never overestimate the great-circle distance to a
    /// point within `d` metres: the cosine at the latitude farthest from the equator it can
    /// have. Bounded by the current best rather than the radius, so an unlimited radius does
    /// not make every column look close.
    func boundMetersPerDegreeLon(within d: Double) -> Double {
        let reachDegrees = min(90, abs(lat) + min(d, 2e7) / (earthMeanRadiusMeters * Double.pi / 180))
        return boundMetersPerDegreeLat * max(0, cos(reachDegrees * Double.pi / 180))
    }

    init?(lon: Double, lat: Double, radiusMeters: Double?, bearing: (degrees: Double, range: Double)?) {
        guard lon.isFinite, lat.isFinite, abs(lon) <= 180, abs(lat) <= 90 else { return nil }
        let limit = radiusMeters ?? Snapper.defaultSearchCapMeters
        guard limit >= 0, !limit.isNaN else { return nil }
        if let bearing, !(bearing.degrees.isFinite && bearing.range.isFinite) { return nil }
        self.lon = lon
        self.lat = lat
        point = GeoPoint(lon: lon, lat: lat)
        self.limit = limit
        // A range of 180° or more lets every direction through: no filter.
        self.bearing = bearing.flatMap { $0.range >= 180 ? nil : $0 }
        projection = LocalProjection(lon: lon, lat: lat)
        // 0.999: the sphere's great circles are a hair shorter than these straight-line figures.
        boundMetersPerDegreeLat = earthMeanRadiusMeters * Double.pi / 180 * 0.999
        projectionDrift = 2 * tan(min(89, abs(lat)) * Double.pi / 180) / earthMeanRadiusMeters
    }
}

/// A set of edge ids for one query at a time: open addressing with a query stamp per slot, so
/// starting a new query clears nothing and memory follows the largest query, not the graph
/// (an array of stamps per edge would cost 4 bytes × edges for every Snapper).
final class EdgeVisitSet {
    private var keys: UnsafeMutableBufferPointer<UInt32>
    private var stamps: UnsafeMutableBufferPointer<UInt32>
    private var stamp: UInt32 = 0
    private var count = 0
    private var shift: UInt32 = 32 - 10

    init() {
        keys = .allocate(capacity: 1 << 10)
        keys.initialize(repeating: 0)
        stamps = .allocate(capacity: 1 << 10)
        stamps.initialize(repeating: 0)
    }

    deinit {
        keys.deallocate()
        stamps.deallocate()
    }

    func startQuery() {
        count = 0
        if stamp == UInt32.max {
            stamps.update(repeating: 0)
            stamp = 0
        }
        stamp += 1
    }

    /// Adds e; false when it was already there this query.
    @inline(__always) func insert(_ e: UInt32) -> Bool {
        let mask = keys.count - 1
        // Fibonacci hashing: the top bits of e × 2³²/φ.
        var i = Int((e &* 0x9E37_79B9) >> shift)
        while stamps[i] == stamp {
            if keys[i] == e { return false }
            i = (i + 1) & mask
        }
        keys[i] = e
        stamps[i] = stamp
        count += 1
        if count * 2 > keys.count { grow() }
        return true
    }

    /// Doubles the table, keeping this query's entries.
    private func grow() {
        let oldKeys = keys, oldStamps = stamps
        keys = .allocate(capacity: oldKeys.count * 2)
        keys.initialize(repeating: 0)
        stamps = .allocate(capacity: oldKeys.count * 2)
        stamps.initialize(repeating: 0)
        shift -= 1
        let current = stamp
        stamp = 1
        count = 0
        for i in 0..<oldKeys.count where oldStamps[i] == current { _ = insert(oldKeys[i]) }
        oldKeys.deallocate()
        oldStamps.deallocate()
    }
}
