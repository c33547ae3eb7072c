/// Strongly connected components (Tarjan's algorithm, iterative so deep roads cannot overflow
/// the stack). Components are numbered by size, largest first, so component 0 is the main
/// network that snapping prefers; ties go to the component with the smaller first node.
public enum StronglyConnectedComponents {
    /// `firstOut`/`head`: forward CSR. Returns the component of every node and the component sizes.
    public static func compute(nodeCount n: Int, firstOut: [UInt32], head: [UInt32]) -> (component: [UInt32], sizes: [Int]) {
        let unvisited = UInt32.max
        var index = [UInt32](repeating: unvisited, count: n)
        var low = [UInt32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var stack: [UInt32] = []
        var raw = [UInt32](repeating: 0, count: n)
        var rawCount: UInt32 = 0
        var nextIndex: UInt32 = 0
        // Call stack of (node, next arc to look at).
        var calls: [(UInt32, UInt32)] = []
        for root in 0..<n where index[root] == unvisited {
            calls.append((UInt32(root), firstOut[root]))
            index[root] = nextIndex; low[root] = nextIndex; nextIndex += 1
            stack.append(UInt32(root)); onStack[root] = true
            while let (v, arc) = calls.last {
                let vi = Int(v)
                if arc < firstOut[vi + 1] {
                    calls[calls.count - 1].1 = arc + 1
                    let w = Int(head[Int(arc)])
                    if index[w] == unvisited {
                        index[w] = nextIndex; low[w] = nextIndex; nextIndex += 1
                        stack.append(UInt32(w)); onStack[w] = true
                        calls.append((UInt32(w), firstOut[w]))
                    } else if onStack[w] {
                        low[vi] = min(low[vi], index[w])
                    }
                    continue
                }
                calls.removeLast()
                if let (parent, _) = calls.last { low[Int(parent)] = min(low[Int(parent)], low[vi]) }
                if low[vi] == index[vi] {
                    while true {
                        let w = stack.removeLast()
                        onStack[Int(w)] = false
                        raw[Int(w)] = rawCount
                        if w == v { break }
                    }
                    rawCount += 1
                }
            }
        }
        // Renumber by size, largest first; ties by the smallest node in the component.
        var size = [Int](repeating: 0, count: Int(rawCount))
        var firstNode = [Int](repeating: Int.max, count: Int(rawCount))
        for v in 0..<n {
            size[Int(raw[v])] += 1
            firstNode[Int(raw[v])] = min(firstNode[Int(raw[v])], v)
        }
        let order = (0..<Int(rawCount)).sorted { (size[$0], -firstNode[$0]) > (size[$1], -firstNode[$1]) }
        var rank = [UInt32](repeating: 0, count: Int(rawCount))
        for (r, c) in order.enumerated() { rank[c] = UInt32(r) }
        return (raw.map { rank[Int($0)] }, order.map { size[$0] })
    }
}
