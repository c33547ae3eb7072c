import BinaryIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 of whole packs. The system's libcrypto (OpenSSL 3, present on every Debian with
/// Swift) uses the CPU's SHA instructions and is ~5× faster than the portable Swift
/// implementation, which hashing gigabytes of packs needs; when the library cannot be loaded the
/// portable `BinaryIO.SHA256` is used. Both give the same digest (tested).
enum PackDigest {
    private typealias OneShot = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?

    private static let libcrypto: OneShot? = {
        if ProcessInfo.processInfo.environment["OFFGRID_PORTABLE_SHA256"] != nil { return nil }
        for name in ["libcrypto.so.3", "libcrypto.so"] {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, "SHA256") {
                return unsafeBitCast(symbol, to: OneShot.self)
            }
        }
        return nil
    }()

    /// Whether the fast path is in use.
    static var usesSystemLibrary: Bool { libcrypto != nil }

    static func sha256Hex(_ bytes: [UInt8]) -> String {
        if let f = libcrypto {
            var digest = [UInt8](repeating: 0, count: 32)
            bytes.withUnsafeBufferPointer { src in
                digest.withUnsafeMutableBufferPointer { dst in _ = f(src.baseAddress, src.count, dst.baseAddress) }
            }
            return SHA256.hex(digest)
        }
        return SHA256.hex(SHA256.hash(bytes))
    }

    private typealias Init = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    private typealias Update = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int32
    private typealias Final = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutableRawPointer?) -> Int32

    private static let streaming: (Init, Update, Final)? = {
        if ProcessInfo.processInfo.environment["OFFGRID_PORTABLE_SHA256"] != nil { return nil }
        for name in ["libcrypto.so.3", "libcrypto.so"] {
            if let h = dlopen(name, RTLD_NOW | RTLD_LOCAL), let i = dlsym(h, "SHA256_Init"),
               let u = dlsym(h, "SHA256_Update"), let f = dlsym(h, "SHA256_Final") {
                return (unsafeBitCast(i, to: Init.self), unsafeBitCast(u, to: Update.self), unsafeBitCast(f, to: Final.self))
            }
        }
        return nil
    }()

    /// SHA-256 of the concatenation of the parts.
    static func sha256Hex(parts: [ArraySlice<UInt8>]) -> String {
        if let (initialize, update, final) = streaming {
            // SHA256_CTX is 112 bytes; 256 leaves room.
            let ctx = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
            defer { ctx.deallocate() }
            _ = initialize(ctx)
            for p in parts { p.withUnsafeBytes { _ = update(ctx, $0.baseAddress, $0.count) } }
            var digest = [UInt8](repeating: 0, count: 32)
            digest.withUnsafeMutableBufferPointer { _ = final($0.baseAddress, ctx) }
            return SHA256.hex(digest)
        }
        var sha = SHA256()
        for p in parts { sha.update(p) }
        return SHA256.hex(sha.finalize())
    }

    static func portableHex(_ bytes: [UInt8]) -> String { SHA256.hex(SHA256.hash(bytes)) }
}
