/// SHA-256 (FIPS 180-4) in pure Swift, streaming so large files can be hashed chunk by chunk.
///
/// Used for content hashes (profile hashes, pack identities), not for secrets: there is no
/// attempt at constant-time behaviour.
///
///     var sha = SHA256()
///     sha.update(chunk1); sha.update(chunk2)
///     let digest = sha.finalize()          // 32 bytes
///     SHA256.hex(digest)                   // 64 lowercase hex digits
public struct SHA256: Sendable {
    public static let digestByteCount = 32
    static let blockByteCount = 64

    /// Working hash value H0…H7.
    private var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85
    private var h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
    private var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c
    private var h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
    /// Bytes of an incomplete block carried over between `update` calls.
    private var pending: [UInt8]
    private var pendingCount = 0
    /// Message length so far in bytes (the padding needs it in bits, mod 2^64).
    private var messageByteCount: UInt64 = 0

    public init() {
        pending = [UInt8](repeating: 0, count: SHA256.blockByteCount)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var input = base
        var left = bytes.count
        messageByteCount &+= UInt64(left)

        if pendingCount > 0 {
            let take = min(left, SHA256.blockByteCount - pendingCount)
            pending.withUnsafeMutableBytes { dst in
                dst.baseAddress!.advanced(by: pendingCount).copyMemory(from: input, byteCount: take)
            }
            pendingCount += take
            input += take
            left -= take
            guard pendingCount == SHA256.blockByteCount else { return }
            let carried = pending
            carried.withUnsafeBytes { compress(blocks: $0.baseAddress!, count: 1) }
            pendingCount = 0
        }

        let wholeBlocks = left / SHA256.blockByteCount
        if wholeBlocks > 0 {
            compress(blocks: input, count: wholeBlocks)
            input += wholeBlocks * SHA256.blockByteCount
            left -= wholeBlocks * SHA256.blockByteCount
        }

        if left > 0 {
            pending.withUnsafeMutableBytes { dst in
                dst.baseAddress!.copyMemory(from: input, byteCount: left)
            }
            pendingCount = left
        }
    }

    /// Pads the message, returns the 32-byte digest and resets the hasher to its initial
    /// state, so the value can be reused for the next message.
    public mutating func finalize() -> [UInt8] {
        let bitLength = messageByteCount &* 8
        // 0x80, zeros up to 56 mod 64, then the 64-bit big-endian bit length.
        var tail = [UInt8](repeating: 0, count: pendingCount < 56 ? 64 : 128)
        for i in 0..<pendingCount { tail[i] = pending[i] }
        tail[pendingCount] = 0x80
        for i in 0..<8 {
            tail[tail.count - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))
        }
        tail.withUnsafeBytes { compress(blocks: $0.baseAddress!, count: tail.count / SHA256.blockByteCount) }

        var digest = [UInt8]()
        digest.reserveCapacity(SHA256.digestByteCount)
        for word in [h0, h1, h2, h3, h4, h5, h6, h7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        self = SHA256()
        return digest
    }

    /// The digest of `bytes` in one call.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var sha = SHA256()
        sha.update(bytes)
        return sha.finalize()
    }

    /// Lowercase hexadecimal, two digits per byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Compression function

    /// Runs the compression function over `count` consecutive 64-byte blocks at `blocks`
    /// (any alignment). Arithmetic is modulo 2^32 by definition, hence `&+`.
    private mutating func compress(blocks: UnsafeRawPointer, count: Int) {
        var a0 = h0, b0 = h1, c0 = h2, d0 = h3, e0 = h4, f0 = h5, g0 = h6, k0 = h7
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            SHA256.roundConstants.withUnsafeBufferPointer { k in
                for blockIndex in 0..<count {
                    let block = blocks + blockIndex * SHA256.blockByteCount
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t - 15], y = w[t - 2]
                        let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                        let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var a = a0, b = b0, c = c0, d = d0, e = e0, f = f0, g = g0, h = k0
                    for t in 0..<64 {
                        let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let choose = (e & f) ^ (~e & g)
                        let t1 = h &+ sum1 &+ choose &+ k[t] &+ w[t]
                        let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = sum0 &+ majority
                        h = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ t2
                    }
                    a0 = a0 &+ a; b0 = b0 &+ b; c0 = c0 &+ c; d0 = d0 &+ d
                    e0 = e0 &+ e; f0 = f0 &+ f; g0 = g0 &+ g; k0 = k0 &+ h
                }
            }
        }
        h0 = a0; h1 = b0; h2 = c0; h3 = d0; h4 = e0; h5 = f0; h6 = g0; h7 = k0
    }

    /// First 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}

@inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
    (x &>> n) | (x &<< (32 &- n))
}
