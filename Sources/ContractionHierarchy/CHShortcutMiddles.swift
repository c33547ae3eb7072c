/// The middle rank of every arc of a hierarchy, stored for shortcuts only.
///
/// About 40 % of a road hierarchy's arcs are real turns with no middle; a u32 per arc spent
/// 4 bytes on each of them (~16 MB at ~5 M OSM nodes). Here `index` flags the shortcuts among
/// the arcs (`FlagWords`: one word per 32 arcs) and `middles` lists the middles of shortcuts
/// in arc order, in three bytes each where every rank fits. A lookup is one word, a popcount
/// and one middle: only path unpacking reads it.
public struct CHShortcutMiddles: @unchecked Sendable {
    public let arcCount: Int
    public let index: UnsafeBufferPointer<UInt64>
    /// The shortcuts' middles in arc order, `middleBytes` little-endian bytes each. A middle is
    /// read as the four bytes ending with its last, so one byte before the first must be
    /// readable (a file's section never starts the file; `with` keeps one in memory).
    public let middles: UnsafeRawBufferPointer
    /// 3 for hierarchies of at most 2^24 ranks, else 4 (`middleBytes(rankCount:)`).
    public let middleBytes: Int

    /// Three bytes hold every rank of a hierarchy of up to 2^24 ranks (~5 M OSM nodes make
    /// ~2.3 M): a quarter of the section (6 MB at ~5 M nodes) goes to the core table instead.
    public static func middleBytes(rankCount: Int) -> Int { rankCount <= 1 << 24 ? 3 : 4 }

    /// Checks only the index length and the middles' byte count (O(1)); `problem()` checks the rest.
    public init(arcCount: Int, index: UnsafeBufferPointer<UInt64>, middles: UnsafeRawBufferPointer, middleBytes: Int) {
        precondition(index.count == Self.indexLength(arcCount: arcCount), "the index has one word per 32 arcs")
        precondition((3...4).contains(middleBytes) && middles.count % middleBytes == 0, "middles of 3 or 4 bytes each")
        self.arcCount = arcCount
        self.index = index
        self.middles = middles
        self.middleBytes = middleBytes
    }

    public static func indexLength(arcCount: Int) -> Int { FlagWords.count(slots: arcCount) }

    /// The middles stored.
    public var shortcutCount: Int { middles.count / middleBytes }

    /// Middles as `middles` holds them for a hierarchy of `rankCount` ranks: `middleBytes`
    /// little-endian bytes each (`middleBytes(rankCount:)`).
    public static func pack(_ middles: [UInt32], rankCount: Int) -> (bytes: [UInt8], middleBytes: Int) {
        let width = middleBytes(rankCount: rankCount)
        var bytes = [UInt8](repeating: 0, count: middles.count * width)
        for (k, m) in middles.enumerated() {
            precondition(width == 4 || m < 1 << 24, "middle \(m) does not fit \(width) bytes")
            for b in 0..<width { bytes[k * width + b] = UInt8(truncatingIfNeeded: m >> UInt32(8 * b)) }
        }
        return (bytes, width)
    }

    /// Lends the middles of `compact`'s output, packed for a hierarchy of `rankCount` ranks, to `body`.
    public static func with<R>(arcCount: Int, index: [UInt64], shortcutMiddle: [UInt32], rankCount: Int,
                               _ body: (CHShortcutMiddles) throws -> R) rethrows -> R {
        let (packed, width) = pack(shortcutMiddle, rankCount: rankCount)
        let block = [0] + packed   // the byte before the first middle
        return try index.withUnsafeBufferPointer { index in
            try block.withUnsafeBytes { block in
                try body(CHShortcutMiddles(arcCount: arcCount, index: index, middles: UnsafeRawBufferPointer(rebasing: block[1...]),
                                           middleBytes: width))
            }
        }
    }

    /// The middle of arc `arc`, `UInt32.max` for a real arc.
    @inline(__always) public subscript(arc: Int) -> UInt32 {
        isShortcut(arc) ? shortcutMiddle(firstShortcut(atOrAfter: arc)) : UInt32.max
    }

    /// The `k`-th middle stored: one unaligned load of the four bytes ending with its last.
    @inline(__always) public func shortcutMiddle(_ k: Int) -> UInt32 {
        let lead = 4 &- middleBytes
        return (middles.baseAddress.unsafelyUnwrapped + (k &* middleBytes &- lead)).loadUnaligned(as: UInt32.self)
            >> UInt32(truncatingIfNeeded: 8 &* lead)
    }

    /// Where the `k`-th middle lies (for prefetching).
    @inline(__always) func address(ofShortcut k: Int) -> UnsafeRawPointer {
        middles.baseAddress.unsafelyUnwrapped + k &* middleBytes
    }

    @inline(__always) public func isShortcut(_ arc: Int) -> Bool { FlagWords.isFlagged(index, arc) }

    /// Where the middles of the shortcuts from arc `arc` on start among the middles stored.
    @inline(__always) func firstShortcut(atOrAfter arc: Int) -> Int { FlagWords.flagged(index, before: arc) }

    /// The index and shortcut middles of a middle-per-arc array (`UInt32.max`: a real arc).
    public static func compact(_ middle: [UInt32]) -> (index: [UInt64], shortcutMiddle: [UInt32]) {
        let (index, shortcutMiddle) = FlagWords.compact(middle, absent: UInt32.max)
        return (index, shortcutMiddle)
    }

    /// The first inconsistency between the index and the middles, or nil (`FlagWords.problem`).
    /// (Whether a middle lies below its arc is `CHGraphView.validate`'s check.)
    public func problem() -> String? {
        FlagWords.problem(index, slots: arcCount, values: shortcutCount, names: ("arc", "shortcuts", "middles"))
    }
}
