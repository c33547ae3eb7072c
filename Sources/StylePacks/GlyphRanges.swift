/// The glyph ranges of a font stack: 256 ranges of 256 code points, `0-255` … `65280-65535`, the
/// unit a GL renderer requests glyphs in (`{range}` in the style's `glyphs` template).
public enum GlyphRanges {
    public static let count = 256
    public static let size = 256

    /// Blocks whose ranges `--glyphs local-ideographs` leaves out: the CJK Unified Ideographs
    /// blocks of the Basic Multilingual Plane (glyph ranges stop at U+FFFF; Extensions B and later
    /// lie beyond it).
    public static let ideographBlocks: [(name: String, first: Int, last: Int)] = [
        ("CJK Unified Ideographs Extension A", 0x3400, 0x4DBF),
        ("CJK Unified Ideographs", 0x4E00, 0x9FFF),
    ]

    /// Whether the range starting at `start` holds only CJK Unified Ideographs, so a device that
    /// renders ideographs with a local font never requests it. That is 25 ranges of Extension A
    /// (13312-13567 … 19456-19711) and 82 of the main block (19968-20223 … 40704-40959): 107 in
    /// all. 19712-19967 (U+4D00–U+4DFF) is kept: it also holds the Yijing hexagram symbols.
    public static func isIdeographRange(start: Int) -> Bool {
        let end = start + size - 1
        return ideographBlocks.contains { start >= $0.first && end <= $0.last }
    }

    /// First code points of the ranges a pack holds in `mode`, ascending.
    public static func starts(for mode: GlyphsMode) -> [Int] {
        let all = (0..<count).map { $0 * size }
        switch mode {
        case .all: return all
        case .localIdeographs: return all.filter { !isIdeographRange(start: $0) }
        }
    }

    /// `<start>-<end>`, as `{range}` is replaced in a glyphs URL.
    public static func name(start: Int) -> String { "\(start)-\(start + size - 1)" }
}
