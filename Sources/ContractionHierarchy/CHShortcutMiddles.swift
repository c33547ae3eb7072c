/// The middle rank of every arc of a hierarchy, stored for shortcuts only.
///
/// About 40 % of a road hierarchy's arcs are real turns with no middle; a u32 per arc spent
/// 4 bytes on each of them (~16 MB at ~5 M OSM nodes). Here `index` flags the shortcuts among
/// the arcs (`FlagWords`: one word per 32 arcs) and `shortcutMiddle` lists the middles of
/// shortcuts in arc order. A lookup is one word, a popcount and one middle: only path unpacking
/// reads it.
public struct CHShortcutMiddles: @unchecked Sendable {
    public let arcCount: Int
    public let index: UnsafeBufferPointer<UInt64>
    public let shortcutMiddle: UnsafeBufferPointer<UInt32>

    /// Checks only the index length (O(1)); `problem()` checks the rest.
    public init(arcCount: Int, index: UnsafeBufferPointer<UInt64>, shortcutMiddle: UnsafeBufferPointer<UInt32>) {
        precondition(index.count == Self.indexLength(arcCount: arcCount), "the index has one word per 32 arcs")
        self.arcCount = arcCount
        self.index = index
        self.shortcutMiddle = shortcutMiddle
    }

    public static func indexLength(arcCount: Int) -> Int { FlagWords.count(slots: arcCount) }

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

    @inline(__always) public func isShortcut(_ arc: Int) -> Bool { FlagWords.isFlagged(index, arc) }

    /// Where the middles of the shortcuts from arc `arc` on start in `shortcutMiddle`.
    @inline(__always) func firstShortcut(atOrAfter arc: Int) -> Int { FlagWords.flagged(index, before: arc) }

    /// The index and shortcut middles of a middle-per-arc array (`UInt32.max`: a real arc).
    public static func compact(_ middle: [UInt32]) -> (index: [UInt64], shortcutMiddle: [UInt32]) {
        let (index, shortcutMiddle) = FlagWords.compact(middle, absent: UInt32.max)
        return (index, shortcutMiddle)
    }

    /// The first inconsistency between the index and the middles, or nil (`FlagWords.problem`).
    /// (Whether a middle lies below its arc is `CHGraphView.validate`'s check.)
    public func problem() -> String? {
        FlagWords.problem(index, slots: arcCount, values: shortcutMiddle.count, names: ("arc", "shortcuts", "middles"))
    }
}
