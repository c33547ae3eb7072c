import Crypto

/// SHA-256 content hashes (pack identities, profile hashes, store objects), streaming so large
/// files can be hashed chunk by chunk. A thin face over swift-crypto, which uses the CPU's SHA
/// instructions where it has them.
///
///     var sha = SHA256()
///     sha.update(chunk1); sha.update(chunk2)
///     let digest = sha.finalize()          // 32 bytes
///     SHA256.hex(digest)                   // 64 lowercase hex digits
public struct SHA256 {
    public static let digestByteCount = 32

    private var hasher = Crypto.SHA256()

    public init() {}

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    }

    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// The 32-byte digest; the hasher starts over, ready for the next message.
    public mutating func finalize() -> [UInt8] {
        let digest = Array(hasher.finalize())
        hasher = Crypto.SHA256()
        return digest
    }

    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var sha = SHA256()
        sha.update(bytes)
        return sha.finalize()
    }

    /// Hex digest of several pieces hashed as one message.
    public static func hex(parts: [ArraySlice<UInt8>]) -> String {
        var sha = SHA256()
        for part in parts { sha.update(part) }
        return hex(sha.finalize())
    }

    /// Lowercase hex digits of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
