import CShims
import Foundation
import ContractionHierarchy
import RoutingGraph
import TileMath

/// One edge of a route as driven: which part of it, in which direction, for how long.
public struct DrivenPiece {
    public var edge: Int
    /// 0 along the shape, 1 against it.
    public var direction: Int
    /// Shares of the edge in travel direction where driving starts and ends (0…1).
    public var fromShare: Double
    public var toShare: Double
    public var seconds: Double
    public var meters: Double
    /// Where its points (in travel order, the cut ends interpolated) lie in its leg's `LegPoints`.
    public var points: Range<Int>
}

/// The points of a leg's pieces, piece after piece, one array per axis. A piece's range starts
/// at its predecessor's last point (the junction they share, stored once), so the points of any
/// run of pieces (a step, the whole leg) are one contiguous range. One buffer per leg: two
/// arrays per driven edge were a large part of a long route's assembly (allocation and release).
public struct LegPoints {
    public var lat: [Double] = []
    public var lon: [Double] = []
}

/// Writes a leg's points into buffers sized beforehand: a point is two stores, not two
/// appends with their capacity and uniqueness checks.
struct LegPointWriter {
    let lat: UnsafeMutableBufferPointer<Double>
    let lon: UnsafeMutableBufferPointer<Double>
    private(set) var count = 0

    init(lat: UnsafeMutableBufferPointer<Double>, lon: UnsafeMutableBufferPointer<Double>) {
        self.lat = lat
        self.lon = lon
    }

    @inline(__always) mutating func append(lat y: Double, lon x: Double) {
        precondition(count < lat.count, "more leg points than reserved")
        lat[count] = y
        lon[count] = x
        count += 1
    }
}

extension RoutingData {
    /// Length of edge e between two shares of its length, in travel direction d; its points go
    /// to the end of `points`, but for its first one when `continuing` (the previous piece ended
    /// where it starts: that last point is its first).
    func piece(edge e: Int, direction d: Int, from a: Double, to b: Double, seconds: Double,
               into points: inout LegPointWriter, continuing: Bool) -> DrivenPiece {
        let n = shapes.count(e)
        let meters = Double(edges[e].lengthCm) / 100 * max(0, b - a)
        let first = continuing ? points.count - 1 : points.count
        @inline(__always) func at(_ k: Int) -> (lat: Double, lon: Double) {
            let p = shapes.point(e, k, direction: d)
            return (Double(p.latE7) / 1e7, Double(p.lonE7) / 1e7)
        }
        @inline(__always) func made() -> DrivenPiece {
            DrivenPiece(edge: e, direction: d, fromShare: a, toShare: b, seconds: seconds, meters: meters,
                        points: first..<points.count)
        }
        if a <= 0 && b >= 1 {
            // A whole edge, the common case: its shape as stored, no measuring.
            shapes.forEachPoint(e, direction: d, skippingFirst: continuing) { p in
                points.append(lat: Double(p.latE7) / 1e7, lon: Double(p.lonE7) / 1e7)
            }
            return made()
        }
        // Part of an edge: walk the shape measuring, and cut at the shares.
        var cumulative = [Double](repeating: 0, count: n)
        for k in 1..<n {
            let p = at(k - 1), q = at(k)
            cumulative[k] = cumulative[k - 1] + haversineMeters(GeoPoint(lon: p.lon, lat: p.lat), GeoPoint(lon: q.lon, lat: q.lat))
        }
        let total = cumulative[n - 1]
        let startM = a * total, endM = b * total
        func point(at m: Double) -> (Double, Double) {
            var k = 1
            while k < n - 1 && cumulative[k] < m { k += 1 }
            let span = cumulative[k] - cumulative[k - 1]
            let t = span > 0 ? max(0, min(1, (m - cumulative[k - 1]) / span)) : 0
            let p = at(k - 1), q = at(k)
            return (p.lat + (q.lat - p.lat) * t, p.lon + (q.lon - p.lon) * t)
        }
        if !continuing {
            let (sLat, sLon) = point(at: startM)
            points.append(lat: sLat, lon: sLon)
        }
        for k in 1..<max(1, n - 1) where cumulative[k] > startM && cumulative[k] < endM {
            let p = at(k)
            points.append(lat: p.lat, lon: p.lon)
        }
        let (eLat, eLon) = point(at: endM)
        points.append(lat: eLat, lon: eLon)
        // The tiles' lengths are the reference for distances; the shape sum matches them to the centimetre.
        return made()
    }

    /// The shape points (from, to) of the first segment driven on edge e in direction d, and of
    /// the last: what the bearings leaving and arriving are measured on.
    @inline(__always) func leavingSegment(_ e: Int, _ d: Int) -> (E7Point, E7Point) { shapes.startSegment(e, direction: d) }

    @inline(__always) func arrivingSegment(_ e: Int, _ d: Int) -> (E7Point, E7Point) { shapes.endSegment(e, direction: d) }

    /// Bearing (degrees) leaving the start / arriving at the end of edge e driven in direction
    /// d. With `junction`, the latitude every bearing at one junction shares, its sine and
    /// cosine are reused, not worked out again: the same bits.
    func bearingLeaving(_ e: Int, _ d: Int, at junction: JunctionLatitude? = nil) -> Double {
        let (i, j) = leavingSegment(e, d)
        return shapeBearing(i, j, at: junction)
    }

    func bearingArriving(_ e: Int, _ d: Int, at junction: JunctionLatitude? = nil) -> Double {
        let (i, j) = arrivingSegment(e, d)
        return shapeBearing(i, j, at: junction)
    }

    /// The latitude of the junction where edge e driven in direction d arrives (its shape's last
    /// point that way), with its sine and cosine: the one end all bearings at the junction share.
    func junctionLatitude(arriving e: Int, _ d: Int) -> JunctionLatitude {
        let latE7 = arrivingSegment(e, d).1.latE7
        return JunctionLatitude(latE7: latE7, trig: LatitudeTrig(degrees: Double(latE7) / 1e7))
    }

    /// Bearing from shape point i to shape point j (degrees).
    @inline(__always) func shapeBearing(_ i: E7Point, _ j: E7Point, at junction: JunctionLatitude?) -> Double {
        @inline(__always) func trig(_ p: E7Point) -> LatitudeTrig {
            if let junction, p.latE7 == junction.latE7 { return junction.trig }
            return LatitudeTrig(degrees: Double(p.latE7) / 1e7)
        }
        return initialBearingDegrees(from: trig(i), lon: Double(i.lonE7) / 1e7, to: trig(j), lon: Double(j.lonE7) / 1e7)
    }

    /// The node reached at the end of edge e driven in direction d.
    func endNode(_ e: Int, _ d: Int) -> Int { Int(d == 0 ? edges[e].to : edges[e].from) }
}

extension LegPoints {
    /// True when the turn at point `j` from the segment arriving there (points j − 1 → j) onto
    /// the one leaving it (j → j + 1) is surely smaller, either way, than the angle whose
    /// cosine is `cosine` (0° to 90°), judged in a local plane, without the spherical bearings.
    /// False when unsure: the estimate is used only with segments under 0.05° in both axes
    /// below 75° of latitude, where it is within 0.2° of the bearings' difference; callers keep
    /// a margin of a degree or more below their bar. Segments under 1e-6° in both axes (~0.1 m,
    /// a cut end's piece) are left to the bearings too: there the points' rounding (~1e-14°)
    /// could turn them.
    ///
    /// On the leg's points, not the edges' shapes: a junction's segments are its pieces' end
    /// segments (a cut end lies on its shape segment), already decoded; decoding the four shape
    /// points again was most of this test's cost.
    func turnSurelyBelow(cosine: Double, at j: Int) -> Bool {
        lat.withUnsafeBufferPointer { lat in
            lon.withUnsafeBufferPointer { lon in
                guard j >= 1, j + 1 < lat.count, j + 1 < lon.count, abs(lat[j]) < 75 else { return false }
                let latJ = lat[j]
                let na = latJ - lat[j - 1], eaDegrees = lon[j] - lon[j - 1]
                let nb = lat[j + 1] - latJ, ebDegrees = lon[j + 1] - lon[j]
                let limit = 0.05, shortest = 1e-6
                guard abs(na) < limit, abs(eaDegrees) < limit, abs(nb) < limit, abs(ebDegrees) < limit,
                      max(abs(na), abs(eaDegrees)) >= shortest, max(abs(nb), abs(ebDegrees)) >= shortest else { return false }
                let k = planarCosine(latJ * .pi / 180)
                let ea = eaDegrees * k, eb = ebDegrees * k
                let dot = na * nb + ea * eb
                guard dot > 0 else { return false }
                return dot * dot > cosine * cosine * (na * na + ea * ea) * (nb * nb + eb * eb)
            }
        }
    }
}

/// cos(x) for |x| ≤ 1.31 (75°), to within 1e-9: `turnSurelyBelow`'s east scale needs no more
/// (its margin is a degree), and the libm call was a third of the quiet-junction test.
@inline(__always) private func planarCosine(_ x: Double) -> Double {
    let x2 = x * x
    return 1 - x2 * (1.0 / 2) * (1 - x2 * (1.0 / 12) * (1 - x2 * (1.0 / 30) * (1 - x2 * (1.0 / 56)
        * (1 - x2 * (1.0 / 90) * (1 - x2 * (1.0 / 132))))))
}

/// A junction's latitude as stored (1e-7°) and its sine and cosine.
struct JunctionLatitude {
    let latE7: Int32
    let trig: LatitudeTrig
}

extension RoutingData {
    /// Metres from `source` on rank `first`, through whole edges of `innerCm` centimetres, to
    /// `target` on rank `last` (a different rank): the two end edges count only the share driven.
    /// The whole edges are summed in integers, so a leg and a table cell agree to the bit.
    func meters(from source: Phantom, on first: UInt32, through innerCm: UInt64, to target: Phantom, on last: UInt32) -> Double {
        let firstED = Int(rankEdgeDirection[Int(first)]), lastED = Int(rankEdgeDirection[Int(last)])
        let head = Double(edges[firstED >> 1].lengthCm) / 100 * max(0, 1 - source.position(firstED & 1))
        let tail = Double(edges[lastED >> 1].lengthCm) / 100 * max(0, target.position(lastED & 1))
        return head + Double(innerCm) / 100 + tail
    }

    /// Metres between two points driven on one edge-based node, `rank`.
    func meters(on rank: UInt32, from source: Phantom, to target: Phantom) -> Double {
        let ed = Int(rankEdgeDirection[Int(rank)])
        return Double(edges[ed >> 1].lengthCm) / 100 * max(0, target.position(ed & 1) - source.position(ed & 1))
    }

    /// Metres of a path found with `rankLength` sums (`CHQuery.pathSpan`, `tableDistances`).
    func meters(_ span: CHPathSpan, from source: Phantom, to target: Phantom) -> Double {
        if span.isSingleNode { return meters(on: span.first, from: source, to: target) }
        let inner = span.length - UInt64(rankLength.value(span.last))
        return meters(from: source, on: span.first, through: inner, to: target, on: span.last)
    }
}

extension LegSearch.Leg {
    /// Metres driven, from the edges' lengths alone (no geometry).
    func meters(_ data: RoutingData, source: Phantom, target: Phantom) -> Double {
        guard ranks.count > 1 else { return data.meters(on: ranks[0], from: source, to: target) }
        var inner: UInt64 = 0
        for r in ranks[1..<(ranks.count - 1)] { inner += UInt64(data.rankLength.value(r)) }
        return data.meters(from: source, on: ranks[0], through: inner, to: target, on: ranks[ranks.count - 1])
    }

    /// The leg as driven pieces between the two phantoms, and their points.
    func pieces(_ data: RoutingData, source: Phantom, target: Phantom) -> (pieces: [DrivenPiece], points: LegPoints) {
        var out: [DrivenPiece] = []
        out.reserveCapacity(ranks.count)
        // A piece has at most its edge's shape points (a cut end replaces the points beyond it).
        var capacity = 0
        for rank in ranks { capacity += data.shapes.count(Int(data.rankEdgeDirection[Int(rank)]) >> 1) }
        var lon: [Double] = []
        let lat = [Double](unsafeUninitializedCapacity: capacity) { latBuffer, latCount in
            lon = [Double](unsafeUninitializedCapacity: capacity) { lonBuffer, lonCount in
                var writer = LegPointWriter(lat: latBuffer, lon: lonBuffer)
                for (i, rank) in ranks.enumerated() {
                    let ed = Int(data.rankEdgeDirection[Int(rank)])
                    let e = ed >> 1, d = ed & 1
                    let a = i == 0 ? source.position(d) : 0
                    let b = i == ranks.count - 1 ? target.position(d) : 1
                    out.append(data.piece(edge: e, direction: d, from: a, to: max(a, b), seconds: times[i] / 10, into: &writer,
                                          continuing: i > 0))
                }
                lonCount = writer.count
            }
            latCount = lon.count
        }
        return (out, LegPoints(lat: lat, lon: lon))
    }
}

extension RoutingData {
    /// Brings what turning a found path into pieces and steps reads (each rank's edge record,
    /// the edge's inner shape points, the node it ends at with its coordinates and road ends;
    /// the node it starts at is its predecessor's end) into the cache, in two stages of
    /// prefetches: every edge record first, then what each record points to. Nothing waits but
    /// the second stage's reads of the records, whose misses the first stage overlapped. One
    /// pass that loaded a record and then what it points to held each rank's second miss behind
    /// its first: a ~5 M full route took 2 % longer (the two alternating in one process).
    /// (The ranks' own words were asked for as unpacking produced them: `CHQuery.pathRankData`.)
    func prefetch(ranks: [UInt32]) {
        guard let records = edges.baseAddress, let nodeEnds = nodeFirstEnd.baseAddress, let points = shapes.nodes.baseAddress
        else { return }
        for r in ranks { offgrid_prefetch(records + Int(rankEdgeDirection[Int(r)] >> 1)) }
        let words = shapes.words.baseAddress   // nil when no edge has inner points
        for r in ranks {
            let ed = Int(rankEdgeDirection[Int(r)]), edge = edges[ed >> 1]
            // Every line of the shape (sixteen words to a line, the section line-aligned): an
            // edge driven against its shape starts at its end.
            if let words {
                let end = Int(edges[(ed >> 1) + 1].shapeFirst)
                var line = Int(edge.shapeFirst) & ~15
                while line < end { offgrid_prefetch(words + line); line += 16 }
            }
            let node = Int(ed & 1 == 0 ? edge.to : edge.from)
            if node < nodeCount {
                offgrid_prefetch(nodeEnds + node)
                offgrid_prefetch(points + node)
            }
        }
    }
}
