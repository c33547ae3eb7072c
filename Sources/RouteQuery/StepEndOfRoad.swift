import RoutingTiles

/// OSRM's end-of-road maneuver at a T-junction.
extension StepBuilder {
    /// OSRM's end of the road: a junction of three roads (the one arrived on among them, open to
    /// entry or not) where one of the other two turns right and the other left, each within
    /// `narrowTurnAngle` of a right angle, and neither goes on with the name arrived on (that one
    /// would be the obvious way). As OSRM's intersections, the two one-way halves of a divided
    /// road (the same name, one only in, one only out, less than `groupAngle` apart: a narrow split) are one road.
    static let narrowTurnAngle = 40.0
    static let groupAngle = 35.0
    static let endOfRoadMaxEnds = 8

    func isEndOfRoad(node: Int, from a: DrivenPiece, arriving: Double, bearings: UnsafeBufferPointer<Double>) -> Bool {
        let ends = data.ends(of: node), first = ends.lowerBound, count = ends.count
        guard count >= 3, count <= Self.endOfRoadMaxEnds else { return false }
        let name = data.edges[a.edge].name
        let noRank = UInt32.max
        return withUnsafeTemporaryAllocation(of: (angle: Double, name: UInt32, flow: Int, group: Int).self, capacity: count) { ends in
            // flow: 1 only out of the node, -1 only into it, 0 both ways (or neither).
            var inEnd = -1
            for k in 0..<count {
                let ed = Int(data.nodeEnds[first + k])
                let e = ed >> 1, d = ed & 1
                let out = data.edgeDirectionRank[ed] != noRank, into = data.edgeDirectionRank[ed ^ 1] != noRank
                ends[k] = (turnAngle(arriving: arriving, leaving: bearings[k]), data.edges[e].name, out == into ? 0 : (out ? 1 : -1), k)
                if e == a.edge && d != a.direction { inEnd = k }
            }
            guard inEnd >= 0 else { return false }
            // Pair the halves of divided roads: a group is named by its lowest end.
            for k in 0..<count where ends[k].group == k && ends[k].flow != 0 && ends[k].name != 0 {
                for m in (k + 1)..<count where ends[m].group == m && ends[m].flow == -ends[k].flow && ends[m].name == ends[k].name {
                    var gap = abs(ends[k].angle - ends[m].angle)
                    if gap > 180 { gap = 360 - gap }
                    if gap < Self.groupAngle {
                        ends[m].group = k
                        var mean = (ends[k].angle + ends[m].angle) / 2
                        if abs(ends[k].angle - ends[m].angle) > 180 { mean += mean > 0 ? -180 : 180 }
                        ends[k].angle = mean
                        break
                    }
                }
            }
            let inGroup = ends[inEnd].group
            var right: Double?, left: Double?, others = 0
            for k in 0..<count where ends[k].group == k && k != inGroup {
                others += 1
                if name != 0 && ends[k].name == name { return false }
                let t = ends[k].angle
                if abs(t - 90) < Self.narrowTurnAngle { right = t }
                else if abs(t + 90) < Self.narrowTurnAngle { left = t }
                else { return false }
            }
            return others == 2 && right != nil && left != nil
        }
    }
}
