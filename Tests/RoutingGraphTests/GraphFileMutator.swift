import ContractionHierarchy
import OffgridCore
import RoutingGraph
import TestSupport

/// Damages a graph file's bytes the way a buggy writer or a hostile file would, then
/// recomputes the section and header CRCs so the damage reaches the content checks.
struct GraphFileMutator {
    struct Section { let id: UInt32, elementSize: Int, offset: Int, length: Int, tableEntry: Int }

    let original: [UInt8]
    let headerLength: Int
    let sections: [Section]
    /// Byte offset of the header's first scalar (u64 each).
    static let scalarsOffset = 32

    init(_ bytes: [UInt8]) throws {
        original = bytes
        var r = ByteReader(bytes, offset: 12)
        headerLength = Int(try r.u32())
        _ = try r.u32()
        let count = Int(try r.u32())
        try r.seek(Self.scalarsOffset + 8 * GraphFileFormat.Scalar.allCases.count)
        for _ in 0..<4 { _ = try r.string() }  // data version, profile name and hash, travel mode
        var sections: [Section] = []
        for _ in 0..<count {
            let entry = r.offset
            let id = try r.u32(), size = Int(try r.u32()), offset = Int(try r.u64()), length = Int(try r.u64())
            _ = try r.u64()
            sections.append(Section(id: id, elementSize: size, offset: offset, length: length, tableEntry: entry))
        }
        self.sections = sections
    }

    enum Kind: CaseIterable { case flipBit, huge, zeroRun, swap, offByOne, randomRun, scalar }

    /// A copy damaged once in section `index` (or the header's scalars for `.scalar`), with valid CRCs.
    func mutate(section index: Int, kind: Kind, rng: inout SplitMix64) -> (bytes: [UInt8], what: String) {
        var b = original
        let s = sections[index]
        let elements = s.length / s.elementSize
        if kind == .scalar || elements == 0 {
            let i = rng.below(GraphFileFormat.Scalar.allCases.count)
            let at = Self.scalarsOffset + 8 * i
            let old = b[at..<at + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            let choices: [UInt64] = [0, old &+ 1, old &- 1, UInt64.max, 1 << 31, 1 << 40, rng.next(), old &* 2]
            let value = choices[rng.below(choices.count)]
            withUnsafeBytes(of: value.littleEndian) { for k in 0..<8 { b[at + k] = $0[k] } }
            patchHeaderCRC(&b)
            return (b, "scalar \(GraphFileFormat.Scalar(rawValue: i)!) = \(Int64(bitPattern: value))")
        }
        let es = s.elementSize
        func element(_ e: Int) -> Range<Int> { (s.offset + e * es)..<(s.offset + (e + 1) * es) }
        var what = "section \(s.id) "
        switch kind {
        case .flipBit:
            let byte = s.offset + rng.below(s.length), bit = rng.below(8)
            b[byte] ^= UInt8(1 << bit)
            what += "bit \(bit) of byte \(byte - s.offset)"
        case .huge:
            let e = rng.below(elements)
            let fill: UInt8 = rng.chance(0.5) ? 0xFF : 0x7F
            for k in element(e) { b[k] = fill }
            b[element(e).upperBound - 1] = rng.chance(0.5) ? 0x80 : fill
            what += "element \(e) huge"
        case .zeroRun:
            let e = rng.below(elements), n = min(elements - e, 1 + rng.below(64))
            for k in s.offset + e * es..<s.offset + (e + n) * es { b[k] = 0 }
            what += "\(n) elements zeroed at \(e)"
        case .swap:
            let x = rng.below(elements), y = rng.below(elements)
            let a = Array(b[element(x)]), c = Array(b[element(y)])
            b.replaceSubrange(element(x), with: c)
            b.replaceSubrange(element(y), with: a)
            what += "elements \(x) and \(y) swapped"
        case .offByOne:
            let e = rng.below(elements), up = rng.chance(0.5)
            // Little-endian add/subtract one, with carry.
            for k in element(e) {
                let old = b[k]
                b[k] = up ? old &+ 1 : old &- 1
                if up ? old != 0xFF : old != 0 { break }
            }
            what += "element \(e) \(up ? "+1" : "-1")"
        case .randomRun, .scalar:
            let start = s.offset + rng.below(s.length), n = min(s.offset + s.length - start, 1 + rng.below(32))
            for k in start..<start + n { b[k] = UInt8(truncatingIfNeeded: rng.next()) }
            what += "\(n) random bytes at \(start - s.offset)"
        }
        reseal(&b, s)
        return (b, what)
    }

    /// A copy whose section `id` has every u32 element replaced by `value(index, old)`, resealed.
    func rewriting(_ section: GraphFileFormat.Section, _ value: (Int, UInt32) -> UInt32) -> [UInt8] {
        var b = original
        let s = sections.first { $0.id == section.rawValue }!
        // u32 words, or 3-byte entries (the core table's, shortcut middles) read into the low
        // bytes of a u32.
        let width = s.elementSize == 3 ? 3 : 4
        for (i, at) in stride(from: s.offset, to: s.offset + s.length, by: width).enumerated() {
            var old: UInt32 = 0
            for k in 0..<width { old |= UInt32(b[at + k]) << (8 * k) }
            withUnsafeBytes(of: value(i, old).littleEndian) { for k in 0..<width { b[at + k] = $0[k] } }
        }
        reseal(&b, s)
        return b
    }

    /// A copy whose section table gives section `id` the element size `size`, resealed.
    func declaring(_ section: GraphFileFormat.Section, elementSize size: Int) -> [UInt8] {
        var b = original
        let s = sections.first { $0.id == section.rawValue }!
        withUnsafeBytes(of: UInt32(size).littleEndian) { for k in 0..<4 { b[s.tableEntry + 4 + k] = $0[k] } }
        patchHeaderCRC(&b)
        return b
    }

    /// Recomputes the section's CRC in the table, then the header's.
    private func reseal(_ b: inout [UInt8], _ s: Section) {
        let crc = b[s.offset..<s.offset + s.length].withUnsafeBytes { CRC32.checksum($0) }
        withUnsafeBytes(of: crc.littleEndian) { for k in 0..<4 { b[s.tableEntry + 24 + k] = $0[k] } }
        patchHeaderCRC(&b)
    }

    private func patchHeaderCRC(_ b: inout [UInt8]) {
        let crc = b[20..<headerLength].withUnsafeBytes { CRC32.checksum($0) }
        withUnsafeBytes(of: crc.littleEndian) { for k in 0..<4 { b[16 + k] = $0[k] } }
    }
}
