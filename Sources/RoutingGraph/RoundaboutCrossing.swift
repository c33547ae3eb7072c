import RoutingTiles

/// OSRM's rule against turning across a roundabout's flow (its `isTurnAllowed`): at a node on a
/// ring, a turn from a road into the node onto a road out of it is not allowed when the road out
/// lies on the far side of the road in, seen from the ring arriving at the node: between the ring
/// arriving and the road in, on the side away from the ring leaving. (Left across the entry in
/// right-hand traffic, onto the road the ring has just passed: the driver goes round instead.)
///
///     ring out ←─ v ──→ road out: forbidden when it lies in the sector from
///                 ↑     the ring in to the road in that holds no ring out
///              ring in
struct RoundaboutCrossing {
    /// The node's road ends (edge directions leaving it), and which edge directions are drivable.
    let ends: ArraySlice<UInt32>
    let drivable: [UInt32]
    let g: RoadGraph

    /// Nil when no road at the node is a roundabout (nearly every node: checked first, cheaply).
    init?(_ g: RoadGraph, ends: ArraySlice<UInt32>, drivable: [UInt32]) {
        guard ends.contains(where: { g.edgeFlags[Int($0 >> 1)] & EdgeFlags.roundabout != 0 }) else { return nil }
        self.g = g
        self.ends = ends
        self.drivable = drivable
    }

    /// Whether the turn from edge direction `a` (arriving at the node) onto `b` (leaving it)
    /// crosses the roundabout against its flow.
    func forbids(arriving a: UInt32, leaving b: UInt32) -> Bool {
        let fromReversed = leavingBearing(a ^ 1)
        // The ring arriving (against its end's direction out of the node, which is not driven)
        // and leaving; where there are several (rings linked at the node), OSRM's tie-breaks:
        // the ring in furthest round from the road in, the ring out furthest from it.
        var ringIn = -1.0, ringInAngle = 0.0, ringOut = -1.0, ringOutAngle = 0.0
        for end in ends where g.edgeFlags[Int(end >> 1)] & EdgeFlags.roundabout != 0 {
            let out = leavingBearing(end)
            if drivable[Int(end)] == UInt32.max {
                let travel = (out + 180).truncatingRemainder(dividingBy: 360)
                let angle = Self.angleBetween(travel, fromReversed)
                if angle > ringInAngle { ringIn = travel; ringInAngle = angle }
            } else {
                let angle = Self.angleBetween(fromReversed, out)
                if angle > ringOutAngle { ringOut = out; ringOutAngle = angle }
            }
        }
        guard ringIn >= 0, ringOut >= 0 else { return false }
        // Angles from the ring arriving, as OSRM measures turns (180 straight on, below it right).
        let ringAngle = Self.angleBetween(ringIn, ringOut)
        let fromAngle = Self.angleBetween(ringIn, fromReversed)
        let toAngle = Self.angleBetween(ringIn, leavingBearing(b))
        return (fromAngle < ringAngle && toAngle < fromAngle) || (fromAngle > ringAngle && toAngle > fromAngle)
    }

    /// Degrees of edge direction `x` leaving the node.
    private func leavingBearing(_ x: UInt32) -> Double {
        let e = Int(x >> 1)
        return Double(x & 1 == 0 ? g.edgeBearingStart[e] : (g.edgeBearingEnd[e] + 1800) % 3600) / 10
    }

    /// OSRM's `angleBetween`: the turn from travelling on `entry` to leaving on `exit`, in
    /// 0 ..< 360 (180 straight on, 90 right, 270 left).
    static func angleBetween(_ entry: Double, _ exit: Double) -> Double {
        (entry - exit + 540).truncatingRemainder(dividingBy: 360)
    }
}
