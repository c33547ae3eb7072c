import RoutingTiles

extension RoadGraph {
    /// Two ways over the same nodes (a duplicated way, a road also mapped as part of another):
    /// OSRM keeps one segment per direction of travel, the fastest, and on a tie the one whose
    /// name sorts first (a named one before an unnamed one), and drops the others' directions,
    /// so a route never takes a slower or access-restricted copy of a road, nor leaves one
    /// for its twin. Edges count as parallel when they run from the same node to the same
    /// node (as drawn) over the same shape. Returns how many edge directions were dropped.
    public mutating func keepOneOfParallelEdges() -> Int {
        // The edges at each node (`edgeEnds`): parallels meet in its short list of ends that
        // leave it as drawn (even ends).
        let (first, ends) = edgeEnds()
        var dropped = 0
        for v in 0..<nodeCount where first[v + 1] - first[v] > 1 {
            let at = Int(first[v])..<Int(first[v + 1])
            func leaving(_ i: Int) -> Int? { ends[i] & 1 == 0 ? Int(ends[i] >> 1) : nil }
            for i in at {
                guard let e = leaving(i) else { continue }
                // Each group once, from its first edge; most edges have no parallel at all.
                let later = (i + 1..<at.upperBound).compactMap(leaving).filter { isParallel($0, e) }
                guard !later.isEmpty, !(at.lowerBound..<i).contains(where: { leaving($0).map { isParallel($0, e) } ?? false })
                else { continue }
                for d in 0..<2 { dropped += keepFastest([e] + later, direction: d) }
            }
        }
        return dropped
    }

    private func isParallel(_ a: Int, _ b: Int) -> Bool {
        guard edgeFrom[a] == edgeFrom[b], edgeTo[a] == edgeTo[b] else { return false }
        let ra = Int(shapeFirst[a])..<Int(shapeFirst[a + 1]), rb = Int(shapeFirst[b])..<Int(shapeFirst[b + 1])
        return ra.count == rb.count && shapeLatE7[ra].elementsEqual(shapeLatE7[rb]) && shapeLonE7[ra].elementsEqual(shapeLonE7[rb])
    }

    /// Among `group`'s edges drivable in direction `d` (0 as drawn), keeps the fastest (then
    /// by name, then by index) and makes the others undrivable that way.
    private mutating func keepFastest(_ group: [Int], direction d: Int) -> Int {
        let flag = d == 0 ? EdgeFlags.forward : EdgeFlags.backward
        func speed(_ e: Int) -> UInt16 { d == 0 ? edgeSpeedForward[e] : edgeSpeedBackward[e] }
        let drivable = group.filter { edgeFlags[$0] & flag != 0 && speed($0) > 0 }
        guard drivable.count > 1 else { return 0 }
        func precedes(_ a: Int, _ b: Int) -> Bool {
            let ta = EdgeRecord.deciseconds(lengthCm: edgeLengthCm[a], deciKmh: speed(a))
            let tb = EdgeRecord.deciseconds(lengthCm: edgeLengthCm[b], deciKmh: speed(b))
            if ta != tb { return ta < tb }
            let na = strings[Int(edgeName[a])], nb = strings[Int(edgeName[b])]
            if na != nb {
                if na.isEmpty || nb.isEmpty { return nb.isEmpty }
                return na.utf8.lexicographicallyPrecedes(nb.utf8)
            }
            return a < b
        }
        let kept = drivable.min(by: precedes)!
        for e in drivable where e != kept {
            edgeFlags[e] &= ~flag
            if d == 0 { edgeSpeedForward[e] = 0 } else { edgeSpeedBackward[e] = 0 }
        }
        return drivable.count - 1
    }
}
