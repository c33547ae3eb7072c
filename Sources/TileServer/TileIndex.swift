import Foundation
import MapPacks
import OffgridCore
import TileMath
#if canImport(Glibc)
import Glibc
#endif

/// Every stored tile of one tileset in flat sorted arrays, so that serving a tile is a binary
/// search and one `pread` into the response's buffer: no SQL, no pack opening, no allocation
/// beyond the body. Built from the store's packs in priority order (packs a region uses first,
/// then the newest), so a tile two packs hold comes from the pack `tilestore get` would read.
final class TileIndex: @unchecked Sendable {
    /// One open pack file. Closed when the last index (snapshot) using it goes away: a pack
    /// evicted while serving stays readable through its descriptor until then.
    final class PackFile: @unchecked Sendable {
        let fd: Int32
        let path: String
        /// The ETag prefix: the first 16 hex digits of the pack's SHA-256.
        let tag: String
        init(fd: Int32, path: String, tag: String) { self.fd = fd; self.path = path; self.tag = tag }
        deinit { close(fd) }
    }

    /// Where a stored tile is.
    struct Location {
        var pack: PackFile
        var offset: Int64
        var length: Int
        var crc32: UInt32
    }

    let tileType: TileType
    let compression: TileCompression
    /// The zooms some pack holds.
    private(set) var zooms: ClosedRange<Int>?
    private var keys: [UInt64] = []
    private var packIndex: [UInt32] = []
    private var offsets: [Int64] = []
    private var lengths: [UInt32] = []
    private var crcs: [UInt32] = []
    private var packs: [PackFile] = []

    /// The key: z in the top 4 bits, then x and y in 30 bits each, so key order is (z, x, y) order.
    @inline(__always)
    static func key(z: Int, x: Int, y: Int) -> UInt64 { UInt64(z) << 60 | UInt64(x) << 30 | UInt64(y) }

    /// Opens `packs` (already in priority order within each parent) and merges their indexes.
    /// A pack that cannot be opened or read is left out and reported through `skipped`.
    init(tileType: TileType, compression: TileCompression, readers: [(MapPackReader, String)],
         reuse: [String: PackFile]) throws {
        self.tileType = tileType
        self.compression = compression
        struct Row { var key: UInt64; var priority: Int; var pack: UInt32; var offset: Int64; var length: UInt32; var crc: UInt32 }
        var rows: [Row] = []
        rows.reserveCapacity(readers.reduce(0) { $0 + $1.0.tileCount })
        for (priority, (reader, sha)) in readers.enumerated() {
            let file: PackFile
            if let open = reuse[sha] {
                file = open
            } else {
                let fd = Glibc.open(reader.path, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw InputError(file: reader.path, "cannot open: \(String(cString: strerror(errno)))") }
                file = PackFile(fd: fd, path: reader.path, tag: String(sha.prefix(16)))
            }
            let number = UInt32(packs.count)
            packs.append(file)
            for e in reader.entries {
                let c = e.coordinate
                rows.append(Row(key: Self.key(z: c.z, x: c.x, y: c.y), priority: priority, pack: number,
                                offset: Int64(e.offset), length: UInt32(e.length), crc: e.crc32))
                zooms = zooms.map { min($0.lowerBound, c.z)...max($0.upperBound, c.z) } ?? c.z...c.z
            }
        }
        rows.sort { ($0.key, $0.priority) < ($1.key, $1.priority) }
        for r in rows where keys.last != r.key {
            keys.append(r.key)
            packIndex.append(r.pack)
            offsets.append(r.offset)
            lengths.append(r.length)
            crcs.append(r.crc)
        }
    }

    var count: Int { keys.count }
    var openPacks: [PackFile] { packs }

    /// The stored tile at z/x/y, or nil.
    @inline(__always)
    func locate(z: Int, x: Int, y: Int) -> Location? {
        let wanted = Self.key(z: z, x: x, y: y)
        let i: Int? = keys.withUnsafeBufferPointer { k in
            var lo = 0, hi = k.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if k[mid] < wanted { lo = mid + 1 } else { hi = mid }
            }
            return lo < k.count && k[lo] == wanted ? lo : nil
        }
        guard let i else { return nil }
        return Location(pack: packs[Int(packIndex[i])], offset: offsets[i], length: Int(lengths[i]), crc32: crcs[i])
    }

    /// Every stored tile in (z, x, y) order (export).
    func forEach(_ body: (TileCoordinate, Location) throws -> Void) rethrows {
        for i in 0..<keys.count {
            let k = keys[i]
            let c = TileCoordinate(z: Int(k >> 60), x: Int((k >> 30) & 0x3FFF_FFFF), y: Int(k & 0x3FFF_FFFF))
            try body(c, Location(pack: packs[Int(packIndex[i])], offset: offsets[i], length: Int(lengths[i]), crc32: crcs[i]))
        }
    }
}

extension TileIndex.Location {
    /// Reads the tile's bytes into `buffer` (which must have `length` bytes) and checks their
    /// CRC32; throws naming the pack when the read is short or the bytes are corrupt.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        while done < length {
            let n = pread(pack.fd, buffer.baseAddress! + done, length - done, off_t(offset) + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                throw InputError(file: pack.path, offset: Int(offset), n == 0 ? "truncated tile (run tilestore verify)" : "cannot read: \(String(cString: strerror(errno)))")
            }
            done += n
        }
        let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
        guard crc == crc32 else {
            throw InputError(file: pack.path, offset: Int(offset), "tile fails its CRC32 check (run tilestore verify)")
        }
    }

    /// The tile's bytes as a new array.
    func bytes() throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        try out.withUnsafeMutableBytes { try read(into: $0) }
        return out
    }
}
