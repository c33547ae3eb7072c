import OffgridCore
import OSMPBFProto

/// Per-thread decoding state: an arena for protobuf-c and a reusable inflate buffer,
/// so decoding a block allocates nothing once the first few blocks have sized them.
final class BlobDecoder {
    let path: String
    let arena: OpaquePointer
    private var inflated: [UInt8] = []

    init(path: String) {
        self.path = path
        arena = og_arena_create(4 << 20)
    }

    deinit { og_arena_destroy(arena) }

    var reservedBytes: Int { og_arena_reserved(arena) + inflated.capacity }

    /// The reusable inflate buffer, at least `size` bytes, for `body`'s use only.
    func withInflateBuffer<R>(_ size: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if inflated.count < size { inflated = [UInt8](repeating: 0, count: size) }
        return try inflated.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Uncompresses the blob and hands its payload to `body`; the payload lives until the next call.
    private func withPayload<R>(_ blob: RawBlob, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        og_arena_reset(arena)
        let offset = Int(blob.offset)
        guard let message = blob.bytes.withUnsafeBufferPointer({ og_unpack_blob(arena, $0.baseAddress, $0.count) }) else {
            throw InputError(file: path, offset: offset, "corrupt blob (not a valid Blob message)")
        }
        let m = message.pointee
        switch m.data_case {
        case OSMPBF__BLOB__DATA_RAW:
            let raw = m.raw
            return try body(UnsafeRawBufferPointer(start: raw.data, count: raw.len))
        case OSMPBF__BLOB__DATA_ZLIB_DATA:
            guard m.has_raw_size != 0 else {
                throw InputError(file: path, offset: offset, "corrupt blob: zlib data without raw_size")
            }
            let rawSize = Int(m.raw_size)
            guard rawSize >= 0, rawSize <= PBFLimits.maxBlobSize else {
                throw InputError(file: path, offset: offset, "blob raw size \(rawSize) is over the 32 MiB limit")
            }
            if inflated.count < rawSize { inflated = [UInt8](repeating: 0, count: rawSize) }
            let z = m.zlib_data
            do {
                try inflated.withUnsafeMutableBytes { dst in
                    try Zlib.decompress(UnsafeRawBufferPointer(start: z.data, count: z.len),
                                        into: UnsafeMutableRawBufferPointer(rebasing: dst[0..<rawSize]))
                }
            } catch let error as ZlibError {
                throw InputError(file: path, offset: offset, "corrupt blob: \(error.message)")
            }
            return try inflated.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<rawSize])) }
        case OSMPBF__BLOB__DATA_LZMA_DATA:
            throw InputError(file: path, offset: offset, "unsupported blob compression: lzma")
        case OSMPBF__BLOB__DATA_LZ4_DATA:
            throw InputError(file: path, offset: offset, "unsupported blob compression: lz4")
        case OSMPBF__BLOB__DATA_ZSTD_DATA:
            throw InputError(file: path, offset: offset, "unsupported blob compression: zstd")
        case OSMPBF__BLOB__DATA_OBSOLETE_BZIP2_DATA:
            throw InputError(file: path, offset: offset, "unsupported blob compression: bzip2")
        default:
            throw InputError(file: path, offset: offset, "corrupt blob: no data")
        }
    }

    func decodeHeader(_ blob: RawBlob) throws -> PBFHeader {
        try withPayload(blob) { payload in
            guard let h = og_unpack_header_block(arena, payload.baseAddress?.assumingMemoryBound(to: UInt8.self), payload.count) else {
                throw InputError(file: path, offset: Int(blob.offset), "corrupt header block")
            }
            return try PBFHeader(h.pointee, path: path, offset: Int(blob.offset))
        }
    }

    /// Decodes a data blob and runs `body` on it; the view is valid only inside `body`.
    func withPrimitiveBlock<R>(_ blob: RawBlob, _ body: (PrimitiveBlock) throws -> R) throws -> R {
        try withPayload(blob) { payload in
            guard let b = og_unpack_primitive_block(arena, payload.baseAddress?.assumingMemoryBound(to: UInt8.self), payload.count) else {
                throw InputError(file: path, offset: Int(blob.offset), "corrupt primitive block")
            }
            let block = PrimitiveBlock(b, blobIndex: blob.index, fileOffset: blob.offset)
            if let problem = block.validate() {
                throw InputError(file: path, offset: Int(blob.offset), "corrupt primitive block: \(problem)")
            }
            return try body(block)
        }
    }
}
