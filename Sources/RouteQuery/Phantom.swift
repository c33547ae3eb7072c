/// A snapped location as the search sees it: a point part-way along a road edge, usable in
/// the directions the road (and the bearing filter) allow. Route times start and end there.
public struct Phantom {
    public var edge: Int
    /// From the shape's start to the point, and the whole edge, in centimetres.
    public var offsetCm: Double
    public var lengthCm: Double
    /// Edge-based nodes (ranks) for driving along / against the shape; `UInt32.max` if not usable.
    public var forwardRank: UInt32
    public var backwardRank: UInt32
    public var lon: Double
    public var lat: Double
    /// From the input location to the snapped point, metres.
    public var distance: Double
    /// The strongly connected component of the road (`SnapCandidate.component`; 0 is the largest).
    public var component: UInt32 = 0

    public init(edge: Int, offsetCm: Double, lengthCm: Double, forwardRank: UInt32, backwardRank: UInt32,
                lon: Double, lat: Double, distance: Double) {
        self.edge = edge
        self.offsetCm = offsetCm
        self.lengthCm = lengthCm
        self.forwardRank = forwardRank
        self.backwardRank = backwardRank
        self.lon = lon
        self.lat = lat
        self.distance = distance
    }

    /// Share of the edge before the point in travel direction `d` (0 along the shape).
    @inline(__always) func position(_ d: Int) -> Double {
        guard lengthCm > 0 else { return 0 }
        let f = min(1, max(0, offsetCm / lengthCm))
        return d == 0 ? f : 1 - f
    }

    /// `body(direction, rank)` for the usable directions, along the shape first (no array).
    @inline(__always) func forEachDirection(_ body: (Int, UInt32) -> Void) {
        if forwardRank != UInt32.max { body(0, forwardRank) }
        if backwardRank != UInt32.max { body(1, backwardRank) }
    }

    /// The usable direction whose rank is `rank` (0 along the shape), or nil.
    @inline(__always) func direction(of rank: UInt32) -> Int? {
        if forwardRank != UInt32.max && forwardRank == rank { return 0 }
        if backwardRank != UInt32.max && backwardRank == rank { return 1 }
        return nil
    }

    /// The same point left only in travel direction `d` (continue_straight at a via point
    /// arrived at in `d`).
    func leaving(inDirection d: Int) -> Phantom {
        var p = self
        if d == 0 { p.backwardRank = UInt32.max } else { p.forwardRank = UInt32.max }
        return p
    }

    /// The usable directions: (direction, rank).
    var directions: [(Int, UInt32)] {
        var out: [(Int, UInt32)] = []
        if forwardRank != UInt32.max { out.append((0, forwardRank)) }
        if backwardRank != UInt32.max { out.append((1, backwardRank)) }
        return out
    }
}

extension Phantom {
    public init(candidate c: SnapCandidate) {
        self.init(edge: c.edge, offsetCm: c.offsetCm, lengthCm: c.edgeLengthCm, forwardRank: c.forwardRank,
                  backwardRank: c.backwardRank, lon: c.lon, lat: c.lat, distance: c.distanceMeters)
    }
}
