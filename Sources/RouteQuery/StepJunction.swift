import CShims
import RoutingTiles

/// The junction between two consecutive pieces of a leg as the step rules first see it, from
/// the two pieces' own edges. Most junctions are settled here (`isQuiet`: the same road goes
/// on); the others read the other roads at the node, which lie all over the file.
struct StepJunction {
    let node: Int
    let roads: Int
    let inRoundabout: Bool
    let toRoundabout: Bool
    let sameRoad: Bool
    let classA: UInt8
    let classB: UInt8
    /// Back along the edge just driven (at a dead end, a barrier or any junction).
    let isUTurn: Bool
    /// Onto or off a ferry or car train.
    let changesMode: Bool
    /// Nothing said and nothing counted: the same road on through a plain node, or through a
    /// junction with a turn surely below `StepBuilder.continueAngle`.
    let isQuiet: Bool

    static func isHighway(_ c: UInt8) -> Bool { c == 0 || c == 2 }       // motorway, trunk
    static func isLink(_ c: UInt8) -> Bool { c % 2 == 1 && c <= 9 }      // *_link
    static func isFerry(_ c: UInt8) -> Bool { c == 14 || c == 15 }       // ferry, shuttle train
}

extension StepBuilder {
    func junction(from a: DrivenPiece, to b: DrivenPiece, points: LegPoints) -> StepJunction {
        let node = data.endNode(a.edge, a.direction)
        let roads = data.ends(of: node).count
        let ea = data.edges[a.edge], eb = data.edges[b.edge]
        let inRoundabout = ea.flags & EdgeFlags.roundabout != 0, toRoundabout = eb.flags & EdgeFlags.roundabout != 0
        let classA = ea.roadClass, classB = eb.roadClass
        // Same road: the same name (a ref that ends or starts is not worth a word), or for
        // unnamed roads the same ref, or the same class when both are blank.
        let sameRoad = ea.name != 0 ? ea.name == eb.name
            : (eb.name == 0 && (ea.ref != 0 ? ea.ref == eb.ref : eb.ref == 0 && classA == classB))
        // Onto or off a link road, but for link to link.
        typealias J = StepJunction
        let ramp = (J.isLink(classB) && !J.isLink(classA) && !J.isHighway(classA)) || (J.isHighway(classA) && J.isLink(classB))
            || (J.isLink(classA) && J.isHighway(classB))
        // Along the same road through a plain node nothing is said; through a junction nothing
        // below a `continueAngle` turn, which a planar estimate settles for most junctions
        // without trigonometry (only the doubtful ones are measured).
        let isUTurn = a.edge == b.edge && a.direction != b.direction
        let changesMode = J.isFerry(classA) != J.isFerry(classB)
        // OSRM says nothing only where the road going on is the obvious one, which at a junction
        // depends on the other roads: only a named road of one class going on by less than a
        // `continueAngle` turn is taken for it without looking (a fork or a near-straight side
        // road are missed there, and so are OSRM's merged halves of divided roads and its
        // sliproads, which this keeps quiet); unnamed roads never go on by name in its rules,
        // and motorways split into forks whatever their names (its motorway handler).
        let named = ea.name != 0 || ea.ref != 0
        let isQuiet = sameRoad && !toRoundabout && !inRoundabout && !ramp && !isUTurn && !changesMode
            && (roads <= 2 || (named && classA == classB && !J.isHighway(classA)
                && points.turnSurelyBelow(cosine: Self.surelyNoContinueCosine, at: b.points.lowerBound)))
        return StepJunction(node: node, roads: roads, inRoundabout: inRoundabout, toRoundabout: toRoundabout, sameRoad: sameRoad,
                            classA: classA, classB: classB, isUTurn: isUTurn,
                            changesMode: changesMode, isQuiet: isQuiet)
    }

    /// Brings in what the step rules read about the other roads at the junctions that are not
    /// quiet (a step's intersection, a roundabout's exits) and at quiet ones of three or more roads
    /// (which the collapse may keep as silent junctions): the node's road ends, then each end's
    /// rank and record, then the shape points its bearing is measured on. Read
    /// junction by junction, each of those three misses waited for the one before; here the
    /// misses of all junctions at one level overlap.
    func prefetchRoads(at junctions: [StepJunction]) {
        guard let ends = data.nodeEnds.baseAddress, let ranks = data.edgeDirectionRank.baseAddress,
              let edges = data.edges.baseAddress
        else { return }
        for j in junctions where !j.isQuiet || j.roads >= 3 { offgrid_prefetch(ends + data.ends(of: j.node).lowerBound) }
        for j in junctions where !j.isQuiet || j.roads >= 3 {
            for i in data.ends(of: j.node) {
                let ed = Int(ends[i])
                offgrid_prefetch(ranks + ed)
                offgrid_prefetch(edges + ed >> 1)
            }
        }
        for j in junctions where !j.isQuiet || j.roads >= 3 {
            for i in data.ends(of: j.node) {
                // The segment leaving the junction: the junction's own coordinates (one point
                // all its roads share) and the point after it on the edge.
                let ed = Int(ends[i]), e = ed >> 1
                offgrid_prefetch(data.shapes.address(e, ed & 1 == 0 ? 1 : data.shapes.count(e) - 2))
            }
        }
    }
}
