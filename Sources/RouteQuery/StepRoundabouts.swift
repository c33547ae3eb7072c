import RoutingTiles

/// Roundabouts as OSRM's guidance sees them: which nodes count as exits, and which rings are rotaries.
extension StepBuilder {
    /// Whether `node` is an exit of the roundabout passed through it, as OSRM counts them: one
    /// per node with a drivable road leaving the roundabout (entry-only roads do not count), but
    /// not when every such road is of low priority (service roads) while the roundabout is not.
    func roundaboutExits(at node: Int, except arrivedOn: Int = -1, rightOf ringAngle: Double = 0, arriving: Double = 0,
                                 bearings: UnsafeBufferPointer<Double>? = nil) -> Int {
        var exit = false, lowPriorityExit = false, lowPriorityRing = false
        let first = Int(data.nodeFirstEnd[node])
        for i in first..<Int(data.nodeFirstEnd[node + 1]) {
            let ed = Int(data.nodeEnds[i])
            guard ed >> 1 != arrivedOn else { continue }
            if let bearings, data.edges[ed >> 1].flags & EdgeFlags.roundabout == 0,
               turnAngle(arriving: arriving, leaving: bearings[i - first]) <= ringAngle { continue }
            let edge = data.edges[ed >> 1]
            if edge.flags & EdgeFlags.roundabout != 0 {
                if Self.isLowPriority(edge.roadClass) { lowPriorityRing = true }
            } else if data.edgeDirectionRank[ed] != UInt32.max {
                if Self.isLowPriority(edge.roadClass) { lowPriorityExit = true } else { exit = true }
            }
        }
        return exit || (lowPriorityExit && lowPriorityRing) ? 1 : 0
    }

    /// Service roads (and other highway values opened to cars): OSRM's low-priority classes.
    static func isLowPriority(_ roadClass: UInt8) -> Bool { roadClass == 13 || roadClass == 16 }

    /// OSRM's rotary: a roundabout whose ring has one name of its own that no road at it bears,
    /// with a radius (its length over 2π) above 15 m. Walks the ring from `node` (a node on it),
    /// its length and names from the edge records; a ring that does not close is a roundabout.
    static let rotaryRadiusMeters = 15.0

    func isRotary(ringAt node: Int) -> Bool {
        var ringName: UInt32 = 0
        var lengthCm = 0.0
        var current = node
        for _ in 0..<256 {
            var next = -1
            for i in Int(data.nodeFirstEnd[current])..<Int(data.nodeFirstEnd[current + 1]) {
                let ed = Int(data.nodeEnds[i])
                let edge = data.edges[ed >> 1]
                guard edge.flags & EdgeFlags.roundabout != 0, data.edgeDirectionRank[ed] != UInt32.max else { continue }
                if next >= 0 { return false }   // a fork in the ring
                if edge.name != 0 {
                    if ringName != 0 && ringName != edge.name { return false }
                    ringName = edge.name
                }
                lengthCm += Double(edge.lengthCm)
                next = data.endNode(ed >> 1, ed & 1)
            }
            guard next >= 0 else { return false }
            current = next
            if current == node { break }
        }
        guard current == node, ringName != 0, lengthCm / 100 / (2 * .pi) > Self.rotaryRadiusMeters else { return false }
        // No road at the ring of its name (walked again: only large named rings get here).
        for _ in 0..<256 {
            var next = -1
            for i in Int(data.nodeFirstEnd[current])..<Int(data.nodeFirstEnd[current + 1]) {
                let ed = Int(data.nodeEnds[i])
                let edge = data.edges[ed >> 1]
                if edge.flags & EdgeFlags.roundabout == 0 {
                    if edge.name == ringName { return false }
                } else if data.edgeDirectionRank[ed] != UInt32.max {
                    next = data.endNode(ed >> 1, ed & 1)
                }
            }
            current = next
            if current == node || current < 0 { break }
        }
        return true
    }
}
