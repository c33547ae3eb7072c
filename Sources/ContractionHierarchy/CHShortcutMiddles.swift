/// The middle rank of every arc of a hierarchy, stored for shortcuts only.
///
/// About 40 % of a road hierarchy's arcs are real turns with no middle; a u32 per arc spent
/// 4 bytes on each of them (~16 MB at ~5 M OSM nodes). Here one word per 32 arcs flags the
/// shortcuts among them (high half, bit `i` for arc `32 × block + i`) and counts the shortcuts
/// of all earlier blocks (low half), and `shortcutMiddle` lists the middles of shortcuts in arc
/// order. A lookup is one word, a popcount and one middle: only path unpacking reads it.
public struct CHShortcutMiddles: @unchecked Sendable {
    public let arcCount: Int
    public let index: UnsafeBufferPointer<UInt64>
    public let shortcutMiddle: UnsafeBufferPointer<UInt32>

    public static let arcsPerWord = 32

    /// Checks only the index length (O(1)); `problem()` checks the rest.
    public init(arcCount: Int, index: UnsafeBufferPointer<UInt64>, shortcutMiddle: UnsafeBufferPointer<UInt32>) {
        precondition(index.count == Self.indexLength(arcCount: arcCount), "the index has one word per 32 arcs")
        self.arcCount = arcCount
        self.index = index
        self.shortcutMiddle = shortcutMiddle
    }

    public static func indexLength(arcCount: Int) -> Int { (arcCount + arcsPerWord - 1) / arcsPerWord }

    /// Lends the middles of two arrays (`compact`'s output) to `body`.
    public static func with<R>(arcCount: Int, index: [UInt64], shortcutMiddle: [UInt32], _ body: (CHShortcutMiddles) throws -> R) rethrows -> R {
        try index.withUnsafeBufferPointer { index in
            try shortcutMiddle.withUnsafeBufferPointer { shortcutMiddle in
                try body(CHShortcutMiddles(arcCount: arcCount, index: index, shortcutMiddle: shortcutMiddle))
            }
        }
    }

    /// The middle of arc `arc`, `UInt32.max` for a real arc.
    @inline(__always) public subscript(arc: Int) -> UInt32 {
        isShortcut(arc) ? shortcutMiddle[firstShortcut(atOrAfter: arc)] : UInt32.max
    }

    @inline(__always) public func isShortcut(_ arc: Int) -> Bool { index[arc >> 5] >> UInt64(32 + (arc & 31)) & 1 != 0 }

    /// Where the middles of the shortcuts from arc `arc` on start in `shortcutMiddle`.
    @inline(__always) func firstShortcut(atOrAfter arc: Int) -> Int {
        let word = index[arc >> 5]
        let flags = UInt32(truncatingIfNeeded: word >> 32), below = (UInt32(1) << UInt32(arc & 31)) &- 1
        return Int(UInt32(truncatingIfNeeded: word)) + (flags & below).nonzeroBitCount
    }

    /// The index and shortcut middles of a middle-per-arc array (`UInt32.max`: a real arc).
    public static func compact(_ middle: [UInt32]) -> (index: [UInt64], shortcutMiddle: [UInt32]) {
        var index = [UInt64](repeating: 0, count: indexLength(arcCount: middle.count))
        var shortcutMiddle: [UInt32] = []
        for (a, m) in middle.enumerated() {
            if a & 31 == 0 { index[a >> 5] = UInt64(shortcutMiddle.count) }
            guard m != UInt32.max else { continue }
            index[a >> 5] |= UInt64(1) << UInt64(32 + (a & 31))
            shortcutMiddle.append(m)
        }
        return (index, shortcutMiddle)
    }

    /// The first inconsistency between the index and the middles, or nil: every word must count
    /// the flags before it, flags past the last arc are clear, and there is one middle per flag.
    /// (Whether a middle lies below its arc is `CHGraphView.validate`'s check.)
    public func problem() -> String? {
        var shortcuts = 0
        for (w, word) in index.enumerated() {
            if Int(UInt32(truncatingIfNeeded: word)) != shortcuts {
                return "word \(w) counts \(UInt32(truncatingIfNeeded: word)) shortcuts before it, not \(shortcuts)"
            }
            let flags = UInt32(truncatingIfNeeded: word >> 32)
            let arcsHere = min(Self.arcsPerWord, arcCount - w * Self.arcsPerWord)
            if arcsHere < Self.arcsPerWord && flags >> UInt32(arcsHere) != 0 {
                return "word \(w) flags shortcuts past the last arc"
            }
            shortcuts += flags.nonzeroBitCount
        }
        if shortcuts != shortcutMiddle.count {
            return "\(shortcuts) shortcuts are flagged but \(shortcutMiddle.count) middles stored"
        }
        return nil
    }
}
