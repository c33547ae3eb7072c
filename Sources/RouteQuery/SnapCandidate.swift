/// Where an input location lands on the road network: a point part-way along one shape
/// segment of one edge, with the edge-based nodes (ranks) a route may start or end on there.
///
/// `offsetCm` and `edgeLengthCm` are what a router needs to charge only the driven share of
/// the first and last edge; `forwardRank`/`backwardRank` are already filtered by the bearing
/// the caller asked for, so an unusable direction is `UInt32.max` even on a two-way road.
public struct SnapCandidate: Equatable, Sendable {
    /// Edge index in the graph file.
    public var edge: Int
    /// Segment within the edge: from shape point `segment` to `segment + 1`, counted from the
    /// edge's first shape point.
    public var segment: Int
    /// Position along that segment, 0 at its start, 1 at its end.
    public var fraction: Double
    /// The snapped point, WGS84 degrees.
    public var lon: Double
    public var lat: Double
    /// Great-circle distance from the input location to the snapped point.
    public var distanceMeters: Double
    /// Along the shape from the edge's start to the snapped point, in 0 ... edgeLengthCm.
    public var offsetCm: Double
    /// The whole edge, as stored in the graph file.
    public var edgeLengthCm: Double
    /// Bearing of the segment along the shape, degrees clockwise from north in 0 ..< 360.
    public var bearingDegrees: Double
    /// Edge-based node (rank) for driving along / against the shape; `UInt32.max` when that
    /// direction is not drivable or was rejected by the bearing filter.
    public var forwardRank: UInt32
    public var backwardRank: UInt32
    /// Strongly connected component of the usable directions (the smaller id); components are
    /// numbered by size, largest first: 0 is the main network.
    public var component: UInt32

    public init(edge: Int, segment: Int, fraction: Double, lon: Double, lat: Double, distanceMeters: Double,
                offsetCm: Double, edgeLengthCm: Double, bearingDegrees: Double,
                forwardRank: UInt32, backwardRank: UInt32, component: UInt32) {
        self.edge = edge
        self.segment = segment
        self.fraction = fraction
        self.lon = lon
        self.lat = lat
        self.distanceMeters = distanceMeters
        self.offsetCm = offsetCm
        self.edgeLengthCm = edgeLengthCm
        self.bearingDegrees = bearingDegrees
        self.forwardRank = forwardRank
        self.backwardRank = backwardRank
        self.component = component
    }

    public var isForwardUsable: Bool { forwardRank != UInt32.max }
    public var isBackwardUsable: Bool { backwardRank != UInt32.max }
    public var isOnMainComponent: Bool { component == 0 }

    /// Share of the edge before the snapped point, along the shape (0 for a zero-length edge).
    public var fractionAlongEdge: Double {
        edgeLengthCm > 0 ? min(1, max(0, offsetCm / edgeLengthCm)) : 0
    }
}

/// A bearing filter as OSRM's `bearings=` takes it: travel direction within ±`range` degrees
/// of `degrees` (both in degrees clockwise from north).
@inline(__always) func bearingMatches(_ travel: Double, _ filter: (degrees: Double, range: Double)) -> Bool {
    var difference = (travel - filter.degrees).truncatingRemainder(dividingBy: 360)
    if difference < 0 { difference += 360 }
    return min(difference, 360 - difference) <= filter.range
}

// MARK: - Ranking and keeping candidates during a search

/// A segment hit before the offset and bearing are worked out (only for the answer).
struct SnapHit {
    var edge: Int
    /// The segment: from the edge's shape point `segment` to the next (`EdgeShapes`).
    var segment: Int
    var t: Double
    var lon: Double
    var lat: Double
    var distance: Double
    var forwardRank: UInt32
    var backwardRank: UInt32
    var component: UInt32

    /// Nearer first; equal distances by edge, then segment, so answers never depend on the
    /// order cells are visited in.
    @inline(__always) func isBetter(than o: SnapHit) -> Bool {
        (distance, edge, segment) < (o.distance, o.edge, o.segment)
    }
}

/// What a search keeps: it offers every edge's nearest hit and asks how far a hit may be and
/// still matter, which bounds the rings searched.
protocol SnapCollector {
    var usefulDistance: Double { get }
    mutating func offer(_ hit: SnapHit)
}

/// The nearest hit, plus the nearest on a component that is not tiny (id below `firstTiny`)
/// while the tiny-component rule could still choose one.
struct NearestAndMainCollector: SnapCollector {
    let limit: Double
    let radius: Double?
    let searchMain: Bool
    let firstTiny: UInt32
    var nearest: SnapHit?
    var main: SnapHit?

    init(limit: Double, radius: Double?, searchMain: Bool, firstTiny: UInt32) {
        self.limit = limit
        self.radius = radius
        self.searchMain = searchMain
        self.firstTiny = firstTiny
    }

    var usefulDistance: Double {
        guard let n = nearest else { return limit }
        guard searchMain, n.component >= firstTiny, firstTiny > 0 else { return n.distance }
        let reach = Snapper.mainComponentReach(nearestMeters: n.distance, radiusMeters: radius, limit: limit)
        return max(n.distance, min(main?.distance ?? .infinity, reach))
    }

    mutating func offer(_ hit: SnapHit) {
        if nearest.map({ hit.isBetter(than: $0) }) ?? true { nearest = hit }
        if hit.component < firstTiny, main.map({ hit.isBetter(than: $0) }) ?? true { main = hit }
    }
}

/// The `count` nearest edges' hits, nearest first.
struct NearestEdgesCollector: SnapCollector {
    let count: Int
    let limit: Double
    var hits: [SnapHit] = []

    init(count: Int, limit: Double) {
        self.count = count
        self.limit = limit
        hits.reserveCapacity(min(count, 64) + 1)
    }

    var usefulDistance: Double { hits.count < count ? limit : hits[hits.count - 1].distance }

    mutating func offer(_ hit: SnapHit) {
        var i = hits.count
        while i > 0 && hit.isBetter(than: hits[i - 1]) { i -= 1 }
        guard i < count else { return }
        hits.insert(hit, at: i)
        if hits.count > count { hits.removeLast() }
    }
}
