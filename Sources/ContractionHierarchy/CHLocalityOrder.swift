import OffgridCore
/// Renumbering a hierarchy so that nodes one search visits together lie close in memory.
///
/// Searches only need ids that grow along every upward arc (a topological order of the upward
/// graph): arcs are stored at their lower end, a shortcut's middle is below both its ends, and
/// validation and path unpacking check exactly that. The contraction order is one such order,
/// but it scatters the low and middle levels over the whole array: consecutive ranks were
/// contracted anywhere on the map, so every label and arc range a search touches is a cache miss
/// of its own. This order is another: nodes by level (the longest upward path reaching them from
/// below, so every arc goes to a higher level), and within a level by a space-filling key of the
/// place they stand for, so the few nodes of one level a search reaches share cache lines and
/// pages. The top levels, which every search reaches, stay small and contiguous at the end. An
/// uncontracted core, which no search enters, comes last, by place alone.
extension ContractedGraph {
    /// Each rank's level: 0 when no arc comes up into it, else 1 + the highest level below it
    /// with an arc to it.
    public func levels() -> [UInt32] {
        var level = [UInt32](repeating: 0, count: nodeCount)
        for r in 0..<nodeCount {
            let next = level[r] + 1
            for a in Int(firstOut[r])..<Int(firstOut[r + 1]) where level[Int(head[a])] < next {
                level[Int(head[a])] = next
            }
        }
        return level
    }

    /// The same hierarchy (same arcs, weights, directions) with ranks replaced by ids sorted by
    /// level, then `spatialKey` (indexed by original node id), then old rank, with an
    /// uncontracted core last and sorted by `spatialKey` alone; `rankOfNode` maps original nodes
    /// to the new ids. Arcs within a node keep the documented sort order. The
    /// arcs are written on `threads` workers; the result does not depend on it.
    public func renumberedForLocality(spatialKey: [UInt64], threads: Int = Parallel.activeProcessorCount) -> ContractedGraph {
        precondition(spatialKey.count == nodeCount, "one spatial key per node")
        let level = levels()
        let nodeOfRank = self.nodeOfRank
        // The sort keys side by side: a comparison that looked them up went to three arrays in
        // random order, a cache miss each.
        // An uncontracted core keeps the top ids, which its table covers (levels alone could
        // put a core node below one that is not), ordered by place alone: no search goes through
        // it, and the core ranks one query reaches, near its ends, then share the table's lines.
        let firstCore = nodeCount - uncontractedCore
        var keyed = (0..<nodeCount).map { r in
            (level: r >= firstCore ? 1 << 32 : UInt64(level[r]), place: spatialKey[Int(nodeOfRank[r])], rank: UInt32(r))
        }
        keyed.sort { ($0.level, $0.place, $0.rank) < ($1.level, $1.place, $1.rank) }
        let order = keyed.map(\.rank)   // new id → old rank
        var newId = [UInt32](repeating: 0, count: nodeCount)   // old rank → new id
        for (id, r) in order.enumerated() { newId[Int(r)] = UInt32(id) }

        let core = coreArcsByLowerEnd(newId: newId, firstCore: firstCore)
        var outFirst = [UInt32](repeating: 0, count: nodeCount + 1)
        for (id, r) in order.enumerated() {
            let arcs = id >= firstCore ? core[id - firstCore].count : Int(firstOut[Int(r) + 1] - firstOut[Int(r)])
            outFirst[id + 1] = outFirst[id] + UInt32(arcs)
        }
        var outHead = [UInt32](repeating: 0, count: arcCount), outWeight = [UInt32](repeating: 0, count: arcCount)
        var outMiddle = [UInt32](repeating: 0, count: arcCount), outDirection = [UInt8](repeating: 0, count: arcCount)
        // Each id's arcs go to its own range, known in advance: the ids are spread over the cores.
        outHead.withUnsafeMutableBufferPointer { outHead in
        outWeight.withUnsafeMutableBufferPointer { outWeight in
        outMiddle.withUnsafeMutableBufferPointer { outMiddle in
        outDirection.withUnsafeMutableBufferPointer { outDirection in
            Parallel.forEachChunk(count: nodeCount, threads: threads, chunkSize: 4096) { _, ids in
                var scratch: [(head: UInt32, weight: UInt32, middle: UInt32, direction: UInt8)] = []
                for id in ids {
                    let r = Int(order[id])
                    scratch.removeAll(keepingCapacity: true)
                    if id >= firstCore {
                        scratch.append(contentsOf: core[id - firstCore])
                    } else {
                        for a in Int(firstOut[r])..<Int(firstOut[r + 1]) {
                            let m = middle[a] == UInt32.max ? UInt32.max : newId[Int(middle[a])]
                            scratch.append((newId[Int(head[a])], weight[a], m, direction[a]))
                        }
                    }
                    scratch.sort { x, y in
                        (x.head, x.weight, x.middle, x.direction) < (y.head, y.weight, y.middle, y.direction)
                    }
                    var out = Int(outFirst[id])
                    for arc in scratch {
                        outHead[out] = arc.head; outWeight[out] = arc.weight
                        outMiddle[out] = arc.middle; outDirection[out] = arc.direction
                        out += 1
                    }
                }
            }
        }}}}
        return ContractedGraph(nodeCount: nodeCount, rankOfNode: rankOfNode.map { newId[Int($0)] }, firstOut: outFirst,
                               head: outHead, weight: outWeight, middle: outMiddle, direction: outDirection,
                               shortcutCount: shortcutCount, uncontractedCore: uncontractedCore)
    }

    /// The arcs of an uncontracted core (the top `nodeCount - firstCore` ranks) under the new
    /// ids, listed at their new lower end: ordered by place, two core nodes may have swapped,
    /// and an arc that now runs down moves to its head, its direction flipped. (Below the core,
    /// levels keep every arc upward.)
    private func coreArcsByLowerEnd(newId: [UInt32], firstCore: Int)
        -> [[(head: UInt32, weight: UInt32, middle: UInt32, direction: UInt8)]] {
        var lists = [[(head: UInt32, weight: UInt32, middle: UInt32, direction: UInt8)]](repeating: [], count: nodeCount - firstCore)
        for r in firstCore..<nodeCount {
            let tail = newId[r]
            for a in Int(firstOut[r])..<Int(firstOut[r + 1]) {
                let h = newId[Int(head[a])], m = middle[a] == UInt32.max ? UInt32.max : newId[Int(middle[a])]
                if h > tail {
                    lists[Int(tail) - firstCore].append((h, weight[a], m, direction[a]))
                } else {
                    lists[Int(h) - firstCore].append((tail, weight[a], m, CHDirection.fromHead(direction[a])))
                }
            }
        }
        return lists
    }
}
