import Foundation
import ContractionHierarchy
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
/// Tiny components (OSRM's rule): the nearest usable road wins, unless its strongly connected
/// component is tiny (fewer than `smallComponentSize` edge-based nodes: a car park loop, a
/// one-way dead end, a road cut off by the extract border) while the graph has a component that
/// is not. Then the nearest road on a component that is not tiny is found too, provided it is
/// not much farther: within the radius when one is given, otherwise no more than
/// `max(1000 m, 3 × nearest distance)` beyond the nearest (and within the 5 km cap).
/// `nearestAndMain` gives callers that pair and a route decides between them
/// (`RouteService.phantomChoices`); `snap` takes the big component's road. In a graph with no
/// component of that size (a small extract) every component is tiny and the nearest road wins.
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
    /// A component with fewer edge-based nodes than this is tiny (OSRM's `small_component_size`).
    public static let smallComponentSize = 1000

    public let file: GraphFile
    public let edgeCount: Int
    let cells: GridCells
    let cellEdges: UnsafeBufferPointer<UInt32>
    let edges: UnsafeBufferPointer<EdgeRecord>
    let edgeDirectionRank: UnsafeBufferPointer<UInt32>
    let rankComponent: RankComponents
    let shapes: EdgeShapes
    let gridMinLat: Double, gridMinLon: Double, cellDegrees: Double
    let gridMinLatE7: Int64, gridMinLonE7: Int64, cellE7: Int64
    let cellEdgeBox: UnsafeBufferPointer<UInt16>
    let rows: Int, columns: Int
    /// The first tiny component: components are numbered by size, largest first, so a
    /// component is tiny when its id is at least this (0 when every component is tiny).
    public let firstTinyComponent: UInt32
    /// Roads removed for the queries (`Avoidance`): never snapped onto.
    public var closedEdges: ClosedEdges?

    /// Edges already tested in the current query (an edge is listed in every cell it crosses).
    private let tested = EdgeVisitSet()
    /// The cell being visited's entries with their bounds (kept: no allocation per query).
    private var cellScratch = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 256)
    /// One ring's cells with their distance bounds (kept: no allocation per query).
    private var ringScratch: [(bound: Double, cell: Int)] = []

    deinit { cellScratch.deallocate() }

    /// Reads the grid, shape, edge and rank sections once (as views into the mapped file) and
    /// checks their lengths, so a damaged file is refused here rather than read out of bounds.
    public init(file: GraphFile) throws {
        self.file = file
        edgeCount = file.scalar(.edgeCount)
        cells = GridCells(file)
        cellEdges = file.array(.gridCellEdges)
        cellEdgeBox = file.array(.gridCellEdgeBox)
        edges = file.edges
        edgeDirectionRank = file.edgeDirectionRank
        rankComponent = file.rankComponents
        shapes = EdgeShapes(file)
        rows = file.scalar(.gridRows)
        columns = file.scalar(.gridColumns)
        let cellE7 = file.scalar(.gridCellE7)
        gridMinLat = Double(file.scalar(.gridMinLatE7)) * 1e-7
        gridMinLon = Double(file.scalar(.gridMinLonE7)) * 1e-7
        cellDegrees = Double(cellE7) * 1e-7
        gridMinLatE7 = Int64(file.scalar(.gridMinLatE7))
        gridMinLonE7 = Int64(file.scalar(.gridMinLonE7))
        self.cellE7 = Int64(cellE7)
        let sizes: UnsafeBufferPointer<UInt32> = file.array(.componentSizes)
        var lo = 0, hi = sizes.count   // sizes are non-increasing: the first below the bar
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(sizes[mid]) < Self.smallComponentSize { hi = mid } else { lo = mid + 1 }
        }
        firstTinyComponent = UInt32(min(lo, Int(UInt16.max)))
        func bad(_ what: String) -> InputError { InputError(file: file.path, "snapping: \(what)") }
        guard cellE7 > 0, rows > 0, columns > 0, rows <= Int(Int32.max) / columns else { throw bad("bad grid \(columns) × \(rows) of \(cellE7)") }
        guard cells.index.count == FlagWords.count(slots: rows * columns), let total = cells.first.last, Int(total) == cellEdges.count
        else { throw bad("grid index (\(cells.index.count) words) and offsets disagree with \(rows * columns) cells of \(cellEdges.count) entries") }
        guard cellEdgeBox.count == cellEdges.count else { throw bad("grid has \(cellEdgeBox.count) boxes for \(cellEdges.count) entries") }
        guard edges.count == edgeCount + 1, edgeDirectionRank.count == 2 * edgeCount,
              shapes.words.count == Int(edges[edgeCount].shapeFirst) else { throw bad("edge and shape sections disagree in length") }
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

    /// `snap`'s answer as a route's end point: the same road and point, without the segment's
    /// bearing (which only nearest answers show).
    public func snapPhantom(lon: Double, lat: Double, radiusMeters: Double? = nil, bearing: (degrees: Double, range: Double)? = nil) -> Phantom? {
        guard let (nearest, main) = snapPhantoms(lon: lon, lat: lat, radiusMeters: radiusMeters, bearing: bearing) else { return nil }
        return main ?? nearest
    }

    /// Both end points a route may use: the nearest road, and the nearest on a component that is
    /// not tiny when the nearest one's is (nil otherwise, or when none lies within reach).
    public func snapPhantoms(lon: Double, lat: Double, radiusMeters: Double? = nil, bearing: (degrees: Double, range: Double)? = nil)
        -> (nearest: Phantom, main: Phantom?)? {
        guard let (nearest, main) = nearestAndMainHits(lon: lon, lat: lat, radiusMeters: radiusMeters, bearing: bearing,
                                                       searchMainComponent: true) else { return nil }
        return (phantom(nearest), main.map(phantom))
    }

    /// Whether a component (a `SnapCandidate.component`) is tiny: under `smallComponentSize`.
    @inline(__always) public func isTiny(component: UInt32) -> Bool { component >= firstTinyComponent }

    /// The nearest usable road, and, when that is on a tiny component, the nearest one that is
    /// not and that the reach rule accepts (nil if none). With `searchMainComponent` false only
    /// the nearest is searched.
    public func nearestAndMain(lon: Double, lat: Double, radiusMeters: Double? = nil, bearing: (degrees: Double, range: Double)? = nil,
                               searchMainComponent: Bool = true) -> (nearest: SnapCandidate, main: SnapCandidate?)? {
        guard let (nearest, main) = nearestAndMainHits(lon: lon, lat: lat, radiusMeters: radiusMeters, bearing: bearing,
                                                       searchMainComponent: searchMainComponent) else { return nil }
        return (candidate(nearest), main.map(candidate))
    }

    private func nearestAndMainHits(lon: Double, lat: Double, radiusMeters: Double?, bearing: (degrees: Double, range: Double)?,
                                    searchMainComponent: Bool) -> (nearest: SnapHit, main: SnapHit?)? {
        guard let query = SnapQuery(lon: lon, lat: lat, radiusMeters: radiusMeters, bearing: bearing) else { return nil }
        var collector = NearestAndMainCollector(limit: query.limit, radius: radiusMeters, searchMain: searchMainComponent,
                                                firstTiny: firstTinyComponent)
        search(query, into: &collector)
        guard let nearest = collector.nearest else { return nil }
        var main: SnapHit?
        if searchMainComponent, nearest.component >= firstTinyComponent, let m = collector.main,
           m.distance <= Self.mainComponentReach(nearestMeters: nearest.distance, radiusMeters: radiusMeters, limit: query.limit) {
            main = m
        }
        return (nearest, main)
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
    /// Within a ring, cells go nearest first, and a cell farther than anything that could still
    /// matter is skipped (a segment lies in the cells its bounding box reaches, so its nearest
    /// point is no nearer than the nearest of those cells). Which cells are visited, and in
    /// what order, never changes the answer: hits are ranked by (distance, edge, segment).
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
            let scale = ReachScale(q, stop: stop, metersPerDegreeLon: perDegreeLon)
            if k == 0 {
                visit(cell: qRow * columns + qColumn, q, scale, &collector)
            } else {
                visitRing(k, q, qRow, qColumn, perDegreeLon, scale, &collector)
            }
            k += 1
        }
    }

    /// The grid cells of ring k (k ≥ 1) nearest first, each only while it could still hold a
    /// hit that matters.
    private func visitRing<C: SnapCollector>(_ k: Int, _ q: SnapQuery, _ qRow: Int, _ qColumn: Int, _ perDegreeLon: Double,
                                             _ scale: ReachScale, _ collector: inout C) {
        let r0 = qRow - k, r1 = qRow + k, c0 = qColumn - k, c1 = qColumn + k
        let cLo = max(0, c0), cHi = min(columns - 1, c1), rLo = max(0, r0 + 1), rHi = min(rows - 1, r1 - 1)
        // (bound, cell) of the ring's cells inside the grid that list an edge and are near
        // enough: only those need an order (most cells of a ring far from roads are empty).
        ringScratch.removeAll(keepingCapacity: true)
        let stop = min(q.limit, collector.usefulDistance)
        func add(_ r: Int, _ c: Int) {
            let cell = r * columns + c
            guard cells.hasEntries(cell) else { return }
            let bound = cellBound(r, c, q, perDegreeLon)
            if bound <= stop { ringScratch.append((bound, cell)) }
        }
        if cLo <= cHi {
            if r0 >= 0 && r0 < rows { for c in cLo...cHi { add(r0, c) } }
            if r1 >= 0 && r1 < rows { for c in cLo...cHi { add(r1, c) } }
        }
        if rLo <= rHi {
            if c0 >= 0 && c0 < columns { for r in rLo...rHi { add(r, c0) } }
            if c1 >= 0 && c1 < columns { for r in rLo...rHi { add(r, c1) } }
        }
        ringScratch.sort { $0.bound < $1.bound || ($0.bound == $1.bound && $0.cell < $1.cell) }
        for (bound, cell) in ringScratch {
            if bound > min(q.limit, collector.usefulDistance) { break }
            visit(cell: cell, q, scale, &collector)
        }
    }

    /// A lower bound of the distance from the query to any point of cell (r, c): the larger of
    /// its north–south and east–west gaps, each measured so as never to overestimate.
    @inline(__always) private func cellBound(_ r: Int, _ c: Int, _ q: SnapQuery, _ perDegreeLon: Double) -> Double {
        let south = gridMinLat + Double(r) * cellDegrees, west = gridMinLon + Double(c) * cellDegrees
        let dLat = max(0, south - q.lat, q.lat - (south + cellDegrees)) * q.boundMetersPerDegreeLat
        let dLon = max(0, west - q.lon, q.lon - (west + cellDegrees)) * perDegreeLon
        return max(dLat, dLon)
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

    /// Tests the cell's edges not tested yet that could still matter, nearest box first.
    ///
    /// Each entry's box (`CellEdgeBox`, where in the cell the edge can be) gives a lower bound
    /// of its distance; entries are taken in order of it and the visit ends at the first one
    /// farther than the best road found so far, so most of a cell's edges are never read. The
    /// edges lie all over the edge and shape arrays and waiting for each one's memory in turn
    /// was most of a snap's time: they are taken eight at a time, their first shape point and
    /// rank loaded side by side so the misses overlap, then tested. The answer does not depend
    /// on the order (hits are ranked by distance, edge, segment).
    private func visit<C: SnapCollector>(cell: Int, _ q: SnapQuery, _ scale: ReachScale, _ collector: inout C) {
        let entries = cells.entries(cell), first = entries.lowerBound, end = entries.upperBound
        guard first <= end, end <= cellEdges.count else { return }
        if cellScratch.count < end - first {
            cellScratch.deallocate()
            cellScratch = .allocate(capacity: max(2 * cellScratch.count, end - first))
        }
        let stop = min(q.limit, collector.usefulDistance)
        let south = gridMinLatE7 + Int64(cell / columns) * cellE7, west = gridMinLonE7 + Int64(cell % columns) * cellE7
        // (lower bound in decimetres, rounded down) << 32 | entry: sorting them sorts by bound.
        var n = 0
        for i in first..<end {
            let bound = scale.lowerBound(toBox: CellEdgeBox.sides(cellEdgeBox[i], south: south, west: west, cellE7: cellE7))
            if bound > stop { continue }
            cellScratch[n] = UInt64(min(bound * 10, 4e9)) << 32 | UInt64(i)
            n += 1
        }
        var keys = UnsafeMutableBufferPointer(rebasing: cellScratch[0..<n])
        keys.sort()
        var next = 0
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8) { batch in
            while next < n {
                let within = min(q.limit, collector.usefulDistance)
                var m = 0
                while next < n && m < 8 {
                    let key = keys[next]
                    if Double(key >> 32) / 10 > within { next = n; break }
                    next += 1
                    let e = cellEdges[Int(UInt32(truncatingIfNeeded: key))]
                    guard Int(e) < edgeCount, tested.insert(e) else { continue }
                    batch[m] = e
                    m += 1
                }
                var touched: Int32 = 0
                for k in 0..<m {
                    let e = Int(batch[k])
                    let record = edges[e], s0 = Int(record.shapeFirst)
                    if s0 < shapes.words.count { touched ^= Int32(bitPattern: shapes.words[s0]) }
                    touched ^= shapes.nodes[Int(record.from)].latE7 ^ shapes.nodes[Int(record.to)].latE7
                    touched ^= Int32(truncatingIfNeeded: edgeDirectionRank[2 * e])
                }
                keepComputed(UInt32(bitPattern: touched))
                for k in 0..<m {
                    if let hit = nearestHit(onEdge: Int(batch[k]), q, scale, within: min(q.limit, collector.usefulDistance)) {
                        collector.offer(hit)
                    }
                }
            }
        }
    }

    /// The nearest point of edge e usable in some direction (after the bearing filter), if
    /// one lies within `within` metres (at most the stop `scale` was made for). Ties keep the
    /// earlier segment.
    @inline(__always) private func nearestHit(onEdge e: Int, _ q: SnapQuery, _ scale: ReachScale, within: Double) -> SnapHit? {
        let forward = rank(2 * e), backward = rank(2 * e + 1)
        guard forward != UInt32.max || backward != UInt32.max else { return nil }
        var best: SnapHit?
        var bestDistance = within
        var box = scale.box(within: within)
        let n = shapes.count(e)
        var pa = shapes.point(e, 0)
        for i in 0..<(n - 1) {
            let pb = shapes.point(e, i + 1)
            defer { pa = pb }
            if box.excludes(aLat: pa.latE7, aLon: pa.lonE7, bLat: pb.latE7, bLon: pb.lonE7) { continue }
            let aLat = Double(pa.latE7) * 1e-7, aLon = Double(pa.lonE7) * 1e-7
            let bLat = Double(pb.latE7) * 1e-7, bLon = Double(pb.lonE7) * 1e-7
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
                if pa == pb { continue }
                let travel = initialBearingDegrees(from: GeoPoint(lon: aLon, lat: aLat), to: GeoPoint(lon: bLon, lat: bLat))
                if f != UInt32.max && !bearingMatches(travel, filter) { f = UInt32.max }
                if b != UInt32.max && !bearingMatches(travel + 180, filter) { b = UInt32.max }
                if f == UInt32.max && b == UInt32.max { continue }
            }
            let component = min(f == UInt32.max ? UInt32.max : UInt32(rankComponent[Int(f)]),
                                b == UInt32.max ? UInt32.max : UInt32(rankComponent[Int(b)]))
            best = SnapHit(edge: e, segment: i, t: t, lon: lon, lat: lat, distance: d,
                           forwardRank: f, backwardRank: b, component: component)
            bestDistance = d
            box = scale.box(within: d)
        }
        return best
    }

    /// The rank of edge direction `2e + d`, `UInt32.max` when not drivable (or out of range).
    @inline(__always) private func rank(_ direction: Int) -> UInt32 {
        if let closedEdges, closedEdges.contains(direction >> 1) { return UInt32.max }
        let r = edgeDirectionRank[direction]
        return Int(r) < rankComponent.rankCount ? r : UInt32.max
    }

    /// Completes a hit: offset along the edge (haversine, as the tiles measure) and bearing.
    private func candidate(_ h: SnapHit) -> SnapCandidate {
        let n = shapes.count(h.edge)
        func point(_ k: Int) -> GeoPoint { geoPoint(h.edge, k) }
        let length = Double(edges[h.edge].lengthCm)
        // The direction of a repeated point is that of the next (or previous) real segment.
        var a = h.segment, b = h.segment + 1
        while b + 1 < n && point(a) == point(b) { b += 1 }
        while a > 0 && point(a) == point(b) { a -= 1 }
        return SnapCandidate(edge: h.edge, segment: h.segment, fraction: h.t, lon: h.lon, lat: h.lat,
                             distanceMeters: h.distance, offsetCm: offsetCm(h), edgeLengthCm: length,
                             bearingDegrees: initialBearingDegrees(from: point(a), to: point(b)),
                             forwardRank: h.forwardRank, backwardRank: h.backwardRank, component: h.component)
    }

    /// What a route needs of a hit (no bearing: that is for nearest answers only).
    private func phantom(_ h: SnapHit) -> Phantom {
        var p = Phantom(edge: h.edge, offsetCm: offsetCm(h), lengthCm: Double(edges[h.edge].lengthCm), forwardRank: h.forwardRank,
                        backwardRank: h.backwardRank, lon: h.lon, lat: h.lat, distance: h.distance)
        p.component = h.component
        return p
    }

    /// Along the shape from the edge's start to the hit, in 0 ... the edge's length (cm).
    private func offsetCm(_ h: SnapHit) -> Double {
        var before = 0.0
        for k in 0..<h.segment { before += haversineMeters(geoPoint(h.edge, k), geoPoint(h.edge, k + 1)) }
        let along = before + h.t * haversineMeters(geoPoint(h.edge, h.segment), geoPoint(h.edge, h.segment + 1))
        return min(Double(edges[h.edge].lengthCm), max(0, along * 100))
    }

    @inline(__always) private func geoPoint(_ e: Int, _ k: Int) -> GeoPoint {
        let p = shapes.point(e, k)
        return GeoPoint(lon: Double(p.lonE7) * 1e-7, lat: Double(p.latE7) * 1e-7)
    }
}

/// Does nothing with `value`, but cannot be optimised away, so neither are the loads that made it.
@_optimize(none) @inline(never) func keepComputed(_ value: UInt32) {}
