import RouteQuery
import RoutingGraph

/// The turns out of the ranks transition searches have met, with what a search reads of the
/// rank turned into (its edge direction and length), kept for the searches that follow.
///
/// Consecutive fixes search the same streets again and again, and finding a rank's turns in the
/// graph costs a binary search per road end (restricted-turn copies) and a scan of hierarchy
/// arcs per turn; a cached rank's turns are one hash probe and a contiguous read. The cache
/// is bounded (cleared whole when full), so memory stays constant, never the graph's.
struct TurnCache {
    struct Turn {
        var rank: UInt32
        var edgeDirection: UInt32
        var lengthCm: UInt32
        /// The junction v's road piece ends at.
        var end: E7Point
    }

    private var keys: [UInt32]
    private var stamps: [UInt32]
    private var first: [UInt32]
    private var end: [UInt32]
    private var stamp: UInt32 = 1
    private var used = 0
    private let shift: UInt32
    private(set) var turns: [Turn] = []

    /// Room for `capacity` / 2 ranks before the cache starts over (a power of two).
    init(capacity: Int = 1 << 16) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0)
        keys = [UInt32](repeating: 0, count: capacity)
        stamps = [UInt32](repeating: 0, count: capacity)
        first = [UInt32](repeating: 0, count: capacity)
        end = [UInt32](repeating: 0, count: capacity)
        shift = UInt32(32 - capacity.trailingZeroBitCount)
    }

    /// Where rank r's turns lie in `turns`, looked up in the graph the first time.
    mutating func turns(from r: UInt32, in data: RoutingData) -> Range<Int> {
        let mask = keys.count - 1
        var i = Int((r &* 0x9E37_79B9) >> shift)
        while stamps[i] == stamp {
            if keys[i] == r { return Int(first[i])..<Int(end[i]) }
            i = (i + 1) & mask
        }
        if used * 2 >= keys.count || turns.count > Int(UInt32.max) - 64 {
            clear()   // every slot is free again, i among them
        }
        let start = turns.count
        data.forEachTurn(from: r) { v in
            turns.append(Turn(rank: v, edgeDirection: data.rankEdgeDirection[Int(v)], lengthCm: data.rankLengthCm(v), end: data.rankEnd(v)))
        }
        keys[i] = r
        stamps[i] = stamp
        first[i] = UInt32(start)
        end[i] = UInt32(turns.count)
        used += 1
        return start..<turns.count
    }

    private mutating func clear() {
        if stamp == UInt32.max { stamps = [UInt32](repeating: 0, count: keys.count); stamp = 0 }
        stamp += 1
        used = 0
        turns.removeAll(keepingCapacity: true)
    }
}
