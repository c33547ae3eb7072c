import CZlib
import OSMPBFProto

/// Tells a block of nodes from a block of ways or relations by inflating only the start of its
/// payload: the string table, then the first group's first field. A node block's string table
/// is small, so this costs a few KB of inflation instead of the whole block, which lets a pass
/// that wants ways and relations skip the node blocks (most of a file's bytes) without decoding them.
extension BlobDecoder {
    /// True when the block's first group holds nodes (plain or dense). False for ways,
    /// relations, an empty block, and anything the peek cannot read (such blocks are then
    /// decoded in full, which reports the damage properly).
    func firstGroupHoldsNodes(_ blob: RawBlob) -> Bool {
        og_arena_reset(arena)
        guard let message = blob.bytes.withUnsafeBufferPointer({ og_unpack_blob(arena, $0.baseAddress, $0.count) }) else {
            return false
        }
        let m = message.pointee
        switch m.data_case {
        case OSMPBF__BLOB__DATA_RAW:
            let raw = m.raw
            return PayloadPeek.firstGroupField(UnsafeRawBufferPointer(start: raw.data, count: raw.len)).isNodes
        case OSMPBF__BLOB__DATA_ZLIB_DATA:
            guard m.has_raw_size != 0, m.raw_size > 0, Int(m.raw_size) <= PBFLimits.maxBlobSize else { return false }
            return peekCompressed(m.zlib_data, rawSize: Int(m.raw_size))
        default:
            return false
        }
    }

    private func peekCompressed(_ z: ProtobufCBinaryData, rawSize: Int) -> Bool {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return false }
        defer { inflateEnd(&stream) }
        stream.next_in = z.data
        stream.avail_in = UInt32(z.len)
        return withInflateBuffer(rawSize) { out in
            var produced = 0
            var chunk = 4096
            while true {
                let want = min(chunk, rawSize - produced)
                stream.next_out = out.baseAddress! + produced
                stream.avail_out = UInt32(want)
                let rc = inflate(&stream, Z_NO_FLUSH)
                produced += want - Int(stream.avail_out)
                switch PayloadPeek.firstGroupField(UnsafeRawBufferPointer(start: out.baseAddress, count: produced)) {
                case .nodes: return true
                case .other: return false
                case .needMore:
                    guard rc == Z_OK, produced < rawSize else { return false }
                    chunk *= 2
                }
            }
        }
    }
}

/// Reads a PrimitiveBlock prefix far enough to see the first group's first field.
enum PayloadPeek {
    enum Answer { case nodes, other, needMore }

    static func firstGroupField(_ p: UnsafeRawBufferPointer) -> Answer {
        var pos = 0
        func varint() -> UInt64? {
            var v: UInt64 = 0, shift: UInt64 = 0
            while pos < p.count {
                let b = p[pos]
                pos += 1
                v |= UInt64(b & 0x7f) << shift
                if b < 0x80 { return v }
                shift += 7
                if shift > 63 { return nil }
            }
            return nil
        }
        while pos < p.count {
            guard let key = varint() else { return .needMore }
            let field = key >> 3, wire = key & 7
            switch wire {
            case 0: guard varint() != nil else { return .needMore }
            case 1: pos += 8
            case 5: pos += 4
            case 2:
                guard let length = varint() else { return .needMore }
                guard length <= UInt64(PBFLimits.maxBlobSize) else { return .other }
                if field == 2 && length > 0 {
                    // A PrimitiveGroup: 1 nodes, 2 dense nodes, 3 ways, 4 relations, 5 changesets.
                    guard let inner = varint() else { return .needMore }
                    return inner >> 3 == 1 || inner >> 3 == 2 ? .nodes : .other
                }
                pos += Int(length)
            default: return .other
            }
        }
        return .needMore
    }
}

extension PayloadPeek.Answer {
    var isNodes: Bool { self == .nodes }
}
