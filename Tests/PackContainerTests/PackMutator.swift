import OffgridCore
import TestSupport

/// Damages a valid pack the way a buggy writer or a hostile file would, then recomputes the
/// header, index and preamble CRC32s so that only the readers' content checks can catch it.
/// Layout per docs/FORMATS.md ("Pack container").
struct PackMutator {
    let good: [UInt8]
    let indexStart: Int
    let indexEnd: Int
    /// Start of every index entry.
    let entryStarts: [Int]

    init(_ pack: [UInt8], digestBytes: Int) {
        good = pack
        let headerLength = Self.u32(pack, 24), indexLength = Self.u32(pack, 36), count = Self.u32(pack, 32)
        indexStart = (64 + headerLength + 7) / 8 * 8
        indexEnd = indexStart + indexLength
        var starts: [Int] = []
        var at = indexStart
        for _ in 0..<count {
            starts.append(at)
            at += 2 + (Int(pack[at]) | Int(pack[at + 1]) << 8) + 28 + digestBytes
        }
        entryStarts = starts
    }

    /// One seeded mutation; the description says what was done, for failure messages.
    func mutate(_ rng: inout SplitMix64) -> (bytes: [UInt8], what: String) {
        var b = good
        let what: String
        switch rng.below(7) {
        case 0:
            let at = rng.below(b.count)
            b[at] ^= UInt8(1) << UInt8(rng.below(8))
            what = "bit flip at \(at)"
        case 1:
            // A huge or boundary value over a field of the preamble, header or index.
            let at = rng.below(max(1, min(b.count, indexEnd) - 8))
            let values: [UInt64] = [UInt64.max, UInt64(UInt32.max), 1 << 31, 1 << 62, UInt64(b.count), UInt64(b.count + 1), 0]
            let v = values[rng.below(values.count)]
            let width = [2, 4, 8][rng.below(3)]
            for i in 0..<width where at + i < b.count { b[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))) }
            what = "value \(v) (\(width) bytes) at \(at)"
        case 2:
            let at = rng.below(b.count), n = 1 + rng.below(64)
            for i in at..<min(b.count, at + n) { b[i] = 0 }
            what = "zeroed \(n) bytes at \(at)"
        case 3 where entryStarts.count >= 2:
            // Swap two whole index entries (keys fall out of order, extents stop being contiguous).
            let i = rng.below(entryStarts.count - 1), j = i + 1 + rng.below(entryStarts.count - 1 - i)
            let ends = entryStarts.dropFirst() + [indexEnd]
            let a = Array(b[entryStarts[i]..<ends[ends.startIndex + i]]), c = Array(b[entryStarts[j]..<ends[ends.startIndex + j]])
            var index = Array(b[indexStart..<indexEnd])
            var rebuilt: [UInt8] = []
            for k in 0..<entryStarts.count {
                let e = k == i ? c : k == j ? a : Array(b[entryStarts[k]..<ends[ends.startIndex + k]])
                rebuilt += e
            }
            index = rebuilt
            b.replaceSubrange(indexStart..<indexEnd, with: index)
            what = "swapped index entries \(i) and \(j)"
        case 4:
            let cut = rng.below(b.count)
            return (Array(b[0..<cut]), "truncated at \(cut)")
        case 5:
            let at = rng.below(b.count), n = 1 + rng.below(16)
            for i in at..<min(b.count, at + n) { b[i] = UInt8(truncatingIfNeeded: rng.next()) }
            what = "random \(n) bytes at \(at)"
        default:
            // A field of one index entry: offset, lengths or CRC32, set to a neighbour's or a huge value.
            guard let start = entryStarts.randomElement(using: &rng) else { return (b, "no entries") }
            let fields = start + 2 + (Int(b[start]) | Int(b[start + 1]) << 8)
            let field = fields + [0, 8, 16, 24][rng.below(4)]
            let v: UInt64 = rng.chance(0.5) ? UInt64(rng.below(b.count + 2)) : rng.next()
            for i in 0..<(field == fields + 24 ? 4 : 8) { b[field + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))) }
            what = "index field at \(field) = \(v)"
        }
        return (Self.sealed(b), what)
    }

    /// Recomputes the three CRC32s where the (possibly damaged) preamble says they apply.
    static func sealed(_ pack: [UInt8]) -> [UInt8] {
        var b = pack
        guard b.count >= 64 else { return b }
        let headerLength = u32(b, 24), indexLength = u32(b, 36)
        let indexStart = (64 + headerLength + 7) / 8 * 8
        if 64 + headerLength <= b.count { put(&b, 28, CRC32.checksum(b[64..<(64 + headerLength)])) }
        if indexStart + indexLength <= b.count { put(&b, 40, CRC32.checksum(b[indexStart..<(indexStart + indexLength)])) }
        put(&b, 60, CRC32.checksum(b[0..<60]))
        return b
    }

    static func u32(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
    }

    static func put(_ b: inout [UInt8], _ at: Int, _ v: UInt32) {
        for i in 0..<4 { b[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
    }
}
