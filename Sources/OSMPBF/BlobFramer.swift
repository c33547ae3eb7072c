import OSMPBFProto
import OffgridCore
#if canImport(Glibc)
import Glibc
#endif

/// One framed blob as stored in the file: its type and the still-encoded `Blob` message.
public struct RawBlob {
    public enum Kind: Equatable { case header, data, other(String) }
    /// Position in the file, 0-based; blobs are numbered in file order.
    public let index: Int
    /// Byte offset of the frame (its 4-byte length) in the file.
    public let offset: Int64
    public let kind: Kind
    public let bytes: [UInt8]
}

/// The spec's limits: a BlobHeader over 64 KiB or a Blob over 32 MiB is invalid.
public enum PBFLimits {
    public static let maxBlobHeaderSize = 64 * 1024
    public static let maxBlobSize = 32 * 1024 * 1024
}

/// Reads the file's frames one after the other with `pread`: the memory it holds is one blob,
/// whatever the file size. Decoding happens elsewhere (on worker threads).
final class BlobFramer {
    let path: String
    let fileSize: Int64
    private let fd: Int32
    private var position: Int64 = 0
    private var nextIndex = 0
    private let arena: OpaquePointer

    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw InputError(file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw InputError(file: path, "cannot stat: \(String(cString: strerror(errno)))")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw InputError(file: path, "is a directory, not an OSM PBF file")
        }
        fileSize = Int64(st.st_size)
        arena = og_arena_create(64 * 1024)
    }

    deinit {
        close(fd)
        og_arena_destroy(arena)
    }

    var bytesRead: Int64 { position }

    /// Restarts from the first frame (for a second pass over the file).
    func rewind() {
        position = 0
        nextIndex = 0
    }

    /// Skips to a frame found earlier (its offset and index), for passes that read only some blobs.
    func seek(offset: Int64, index: Int) {
        position = offset
        nextIndex = index
    }

    /// The next frame, or nil at a clean end of file.
    func next() throws -> RawBlob? {
        let frameOffset = position
        if frameOffset == fileSize {
            if frameOffset == 0 { throw InputError(file: path, "empty file, not an OSM PBF file") }
            return nil
        }
        let isFirst = frameOffset == 0
        var lengthBytes = [UInt8](repeating: 0, count: 4)
        let got = try readFully(&lengthBytes, at: frameOffset)
        guard got == 4 else {
            throw InputError(file: path, offset: Int(frameOffset), "truncated file: blob frame cut after \(got) of 4 length bytes")
        }
        let headerSize = Int(lengthBytes[0]) << 24 | Int(lengthBytes[1]) << 16 | Int(lengthBytes[2]) << 8 | Int(lengthBytes[3])
        guard headerSize <= PBFLimits.maxBlobHeaderSize else {
            if isFirst {
                throw InputError(file: path, offset: 0, "not an OSM PBF file (first blob header size \(headerSize) is over the 64 KiB limit)")
            }
            throw InputError(file: path, offset: Int(frameOffset), "blob header size \(headerSize) is over the 64 KiB limit")
        }
        var headerBytes = [UInt8](repeating: 0, count: headerSize)
        let gotHeader = try readFully(&headerBytes, at: frameOffset + 4)
        guard gotHeader == headerSize else {
            throw InputError(file: path, offset: Int(frameOffset + 4), "truncated file: blob header cut after \(gotHeader) of \(headerSize) bytes")
        }
        og_arena_reset(arena)
        guard let header = headerBytes.withUnsafeBufferPointer({ og_unpack_blob_header(arena, $0.baseAddress, headerSize) }) else {
            if isFirst { throw InputError(file: path, offset: 0, "not an OSM PBF file (no valid blob header at the start)") }
            throw InputError(file: path, offset: Int(frameOffset + 4), "corrupt blob header")
        }
        let typeName = header.pointee.type.map { String(cString: $0) } ?? ""
        let dataSize = Int(header.pointee.datasize)
        guard dataSize >= 0 else {
            throw InputError(file: path, offset: Int(frameOffset + 4), "corrupt blob header: negative blob size \(dataSize)")
        }
        guard dataSize <= PBFLimits.maxBlobSize else {
            throw InputError(file: path, offset: Int(frameOffset + 4), "blob size \(dataSize) is over the 32 MiB limit")
        }
        let kind: RawBlob.Kind
        switch typeName {
        case "OSMHeader": kind = .header
        case "OSMData": kind = .data
        default: kind = .other(typeName)
        }
        if isFirst && kind != .header {
            throw InputError(file: path, offset: 0, "not an OSM PBF file (first blob is '\(typeName)', expected 'OSMHeader')")
        }
        let dataOffset = frameOffset + 4 + Int64(headerSize)
        var data = [UInt8](repeating: 0, count: dataSize)
        let gotData = try readFully(&data, at: dataOffset)
        guard gotData == dataSize else {
            throw InputError(file: path, offset: Int(dataOffset), "truncated file: blob cut after \(gotData) of \(dataSize) bytes")
        }
        position = dataOffset + Int64(dataSize)
        defer { nextIndex += 1 }
        return RawBlob(index: nextIndex, offset: frameOffset, kind: kind, bytes: data)
    }

    private func readFully(_ buffer: inout [UInt8], at offset: Int64) throws -> Int {
        let count = buffer.count
        return try buffer.withUnsafeMutableBytes { raw -> Int in
            var done = 0
            while done < count {
                let n = pread(fd, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw InputError(file: path, offset: Int(offset) + done, "read error: \(String(cString: strerror(errno)))")
                }
                if n == 0 { break }
                done += n
            }
            return done
        }
    }
}
