import ContractionHierarchy

/// One metric of a customizable hierarchy: per hierarchy arc its upward weight (lower rank to
/// higher) and downward weight (higher to lower), each the length of a shortest path between the
/// arc's ends through lower ranks only, or `infinity` when there is none. The middle of each
/// (the rank of the lower triangle that gave it, `noMiddle` for an input arc) unpacks paths.
public struct CCHMetric: Sendable {
    /// No path: a removed input arc (an exclusion, a closure) or an arc no lower triangle reaches.
    /// Half the range, so that the sum of two weights never overflows.
    public static let infinity: UInt32 = 0x7FFF_FFFF
    public static let noMiddle = UInt32.max

    /// Per hierarchy arc, its two weights in one word (upward in the low half, downward in the
    /// high half) and its two middles likewise: a triangle reads and writes one word of each
    /// instead of one of four arrays each (the customization is bound by those memory accesses).
    var weights: [UInt64]
    var middles: [UInt64]

    public var arcCount: Int { weights.count }
    @inline(__always) public func up(_ arc: Int) -> UInt32 { UInt32(truncatingIfNeeded: weights[arc]) }
    @inline(__always) public func down(_ arc: Int) -> UInt32 { UInt32(truncatingIfNeeded: weights[arc] >> 32) }
    @inline(__always) public func upMiddle(_ arc: Int) -> UInt32 { UInt32(truncatingIfNeeded: middles[arc]) }
    @inline(__always) public func downMiddle(_ arc: Int) -> UInt32 { UInt32(truncatingIfNeeded: middles[arc] >> 32) }
}

extension CCHTopology {
    /// Customizes a metric: `weights[i]` is input arc `i`'s weight, `CCHMetric.infinity` or more
    /// to remove it. Basic customization (every lower triangle once, ranks ascending), one thread;
    /// answers are exact shortest-path distances of the graph without the removed arcs.
    public func customize(weights input: UnsafeBufferPointer<UInt32>) -> CCHMetric {
        precondition(input.count == inputArc.count, "CCHTopology.customize: one weight per input arc")
        let m = arcCount
        let infinity = UInt64(CCHMetric.infinity)
        let bothInfinite = infinity << 32 | infinity
        var weights = [UInt64](repeating: bothInfinite, count: m)
        var middles = [UInt64](repeating: UInt64.max, count: m)
        for i in 0..<input.count {
            let a = Int(inputArc[i])
            guard a != Int(UInt32.max) else { continue }
            let w = UInt64(min(input[i], CCHMetric.infinity))
            let word = weights[a]
            if inputGoesUp[i] {
                if w < word & 0xFFFF_FFFF { weights[a] = word & ~0xFFFF_FFFF | w }
            } else if w < word >> 32 {
                weights[a] = word & 0xFFFF_FFFF | w << 32
            }
        }
        firstUp.withUnsafeBufferPointer { firstUp in
        upHead.withUnsafeBufferPointer { head in
        weights.withUnsafeMutableBufferPointer { weights in
        middles.withUnsafeMutableBufferPointer { middles in
            for r in 0..<nodeCount {
                let end = Int(firstUp[r + 1])
                var i = Int(firstUp[r])
                while i < end {
                    // The triangles r-x-y with x below y among r's upper neighbours: x to y through
                    // r (down r-x, then up r-y) and back.
                    let x = Int(head[i])
                    let toX = weights[i] & 0xFFFF_FFFF, fromX = weights[i] >> 32
                    i += 1
                    guard fromX < infinity || toX < infinity else { continue }
                    var k = Int(firstUp[x])
                    for j in i..<end {
                        let y = head[j]
                        while head[k] != y { k += 1 }
                        let viaR = weights[j]
                        let upward = fromX + viaR & 0xFFFF_FFFF, downward = viaR >> 32 + toX
                        let word = weights[k]
                        let currentUp = word & 0xFFFF_FFFF, currentDown = word >> 32
                        guard upward < currentUp || downward < currentDown else { continue }
                        var middle = middles[k]
                        if upward < currentUp { middle = middle & ~0xFFFF_FFFF | UInt64(r) }
                        if downward < currentDown { middle = middle & 0xFFFF_FFFF | UInt64(r) << 32 }
                        weights[k] = min(downward, currentDown) << 32 | min(upward, currentUp)
                        middles[k] = middle
                    }
                }
            }
        }}}}
        return CCHMetric(weights: weights, middles: middles)
    }
}
