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

    public var up: [UInt32]
    public var down: [UInt32]
    public var upMiddle: [UInt32]
    public var downMiddle: [UInt32]
}

extension CCHTopology {
    /// Customizes a metric: `weights[i]` is input arc `i`'s weight, `CCHMetric.infinity` or more
    /// to remove it. Basic customization (every lower triangle once, ranks ascending), one thread;
    /// answers are exact shortest-path distances of the graph without the removed arcs.
    public func customize(weights: UnsafeBufferPointer<UInt32>) -> CCHMetric {
        precondition(weights.count == inputArc.count, "CCHTopology.customize: one weight per input arc")
        let m = arcCount
        let infinity = CCHMetric.infinity
        var up = [UInt32](repeating: infinity, count: m)
        var down = [UInt32](repeating: infinity, count: m)
        var upMiddle = [UInt32](repeating: CCHMetric.noMiddle, count: m)
        var downMiddle = [UInt32](repeating: CCHMetric.noMiddle, count: m)
        for i in 0..<weights.count {
            let a = Int(inputArc[i])
            guard a != Int(UInt32.max) else { continue }
            let w = min(weights[i], infinity)
            if inputGoesUp[i] { up[a] = min(up[a], w) } else { down[a] = min(down[a], w) }
        }
        firstUp.withUnsafeBufferPointer { firstUp in
        upHead.withUnsafeBufferPointer { head in
        up.withUnsafeMutableBufferPointer { up in
        down.withUnsafeMutableBufferPointer { down in
        upMiddle.withUnsafeMutableBufferPointer { upMiddle in
        downMiddle.withUnsafeMutableBufferPointer { downMiddle in
            for r in 0..<nodeCount {
                let end = Int(firstUp[r + 1])
                var i = Int(firstUp[r])
                while i < end {
                    // The triangles r-x-y with x below y among r's upper neighbours: x to y through
                    // r (down r-x, then up r-y) and back.
                    let x = Int(head[i])
                    let fromX = down[i], toX = up[i]
                    i += 1
                    guard fromX < infinity || toX < infinity else { continue }
                    var k = Int(firstUp[x])
                    for j in i..<end {
                        let y = head[j]
                        while head[k] != y { k += 1 }
                        let upward = fromX + up[j]
                        if upward < up[k] { up[k] = upward; upMiddle[k] = UInt32(r) }
                        let downward = down[j] + toX
                        if downward < down[k] { down[k] = downward; downMiddle[k] = UInt32(r) }
                    }
                }
            }
        }}}}}}
        return CCHMetric(up: up, down: down, upMiddle: upMiddle, downMiddle: downMiddle)
    }
}
