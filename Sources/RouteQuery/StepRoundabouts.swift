import RoutingTiles

/// Roundabouts as OSRM's guidance sees them: which nodes count as exits, and a turn at a ring's
/// entry that leaves it at once (the kinds of ring: `RoundaboutKind`).
extension StepBuilder {
    /// Whether `node` is an exit of the roundabout passed through it, as OSRM counts them: one
    /// per node with a drivable road leaving the roundabout (entry-only roads do not count), but
    /// not when every such road is of low priority (service roads) while the roundabout is not.
    /// At the node the ring is entered from piece `entry` (`bearings` of the node's road ends
    /// given), only roads right of the way into the ring count (`ringAngle`, the turn onto it),
    /// and only those the driver may turn onto (OSRM's exit at the entry).
    func roundaboutExits(at node: Int, entry: DrivenPiece? = nil, rightOf ringAngle: Double = 0, arriving: Double = 0,
                                 bearings: UnsafeBufferPointer<Double>? = nil) -> Int {
        var exit = false, lowPriorityExit = false, lowPriorityRing = false
        let ends = data.ends(of: node), first = ends.lowerBound
        for i in ends {
            let ed = Int(data.nodeEnds[i])
            if let entry, let bearings {
                guard ed >> 1 != entry.edge else { continue }
                if data.edges[ed >> 1].flags & EdgeFlags.roundabout == 0
                    && (turnAngle(arriving: arriving, leaving: bearings[i - first]) <= ringAngle || !turnAllowed(from: entry, into: ed)) {
                    continue
                }
            }
            let edge = data.edges[ed >> 1]
            if edge.flags & EdgeFlags.roundabout != 0 {
                if Self.isLowPriority(edge.roadClass) { lowPriorityRing = true }
            } else if data.edgeDirectionRank[ed] != UInt32.max {
                if Self.isLowPriority(edge.roadClass) { lowPriorityExit = true } else { exit = true }
            }
        }
        return exit || (lowPriorityExit && lowPriorityRing) ? 1 : 0
    }

    /// Whether the graph has the turn from piece `a` into edge direction `ed` (leaving the node
    /// `a` ends at): not forbidden by a restriction or by the road layout.
    func turnAllowed(from a: DrivenPiece, into ed: Int) -> Bool {
        let to = data.edgeDirectionRank[ed]
        guard to != UInt32.max else { return false }
        return data.ch.hasOriginalArc(from: data.edgeDirectionRank[a.edge << 1 | a.direction], to: to)
    }

    /// Service roads (and other highway values opened to cars): OSRM's low-priority classes.
    static func isLowPriority(_ roadClass: UInt8) -> Bool { roadClass == 13 || roadClass == 16 }
}

extension StepBuilder {
    /// A turn this close to straight on, across the ring, is a road through the roundabout
    /// (OSRM's throughabout, within `FUZZY_ANGLE_DIFFERENCE`), not an exit.
    static let throughaboutDegrees = 25.0

    /// OSRM's enter-and-exit: at a node where a roundabout can be entered, a turn from one road off
    /// the ring onto another is said as leaving it (`exit roundabout`, `exit rotary`, or for a
    /// roundabout intersection a `roundabout turn`), unless the road taken lies across the ring
    /// (between its two roads) within `throughaboutDegrees` of straight on. Nil there and where
    /// there is no ring to enter from piece `a`. `angle` is the turn taken, `bearings[k]` the
    /// bearing of the node's k-th road end.
    func roundaboutTouched(at node: Int, from a: DrivenPiece, angle: Double, arriving: Double,
                           bearings: UnsafeBufferPointer<Double>) -> ManeuverType? {
        let ends = data.ends(of: node), first = ends.lowerBound
        var ringOut = -1, ringRoadsRight = 0
        for i in ends {
            let ed = Int(data.nodeEnds[i])
            guard data.edges[ed >> 1].flags & EdgeFlags.roundabout != 0 else { continue }
            if data.edgeDirectionRank[ed] != UInt32.max { ringOut = ed }
            if turnAngle(arriving: arriving, leaving: bearings[i - first]) > angle { ringRoadsRight += 1 }
        }
        // The ring must be there to enter (not forbidden by a restriction).
        guard ringOut >= 0, turnAllowed(from: a, into: ringOut) else { return nil }
        // An odd number of ring roads right of the road taken: it lies across the ring.
        if abs(angle) < Self.throughaboutDegrees && ringRoadsRight % 2 == 1 { return nil }
        switch roundaboutKind(ringAt: node) {
        case .roundabout: return .exitRoundabout
        case .rotary: return .exitRotary
        case .intersection: return .roundaboutTurn
        case .none: return nil
        }
    }
}
