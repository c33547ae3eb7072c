import Foundation
import XCTest
@testable import OffgridCore
import TestSupport

final class SHA256Tests: XCTestCase {
    private func hex(_ s: String) -> String { SHA256.hex(SHA256.hash(Array(s.utf8))) }

    // FIPS 180-4 / NIST CAVS example messages.
    func testNISTVectors() {
        XCTAssertEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
                       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func testOneMillionA() {
        // Fed in uneven chunks so the carry-over path is exercised on a long message.
        var sha = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 999)
        var left = 1_000_000
        while left > 0 {
            let n = min(left, chunk.count)
            sha.update(chunk[0..<n])
            left -= n
        }
        XCTAssertEqual(SHA256.hex(sha.finalize()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Message of length `n` from the generator seeded with 0x5EED0000 + n (see SplitMix64).
    private func message(_ n: Int) -> [UInt8] {
        var rng = SplitMix64(seed: 0x5EED_0000 + UInt64(n))
        return rng.bytes(n)
    }

    /// Expected values from Python's hashlib over the same messages.
    func testRandomLengthsAgainstHashlib() {
        let expected: [Int: String] = [
            0: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            1: "2c624232cdd221771294dfbb310aca000a0df6ac8b66b696d90ef06fdefb64a3",
            55: "0173c3087875f7e1c840e96f65cff553ab44996d7fa83bb190a72004fd0712c0",
            56: "b3a11ad5d44a52b0d006410df8a843d1f997dba9e84e64e760634ebb0532e5d3",
            63: "c1f0824a44231b175eb665f9a56ca26a489ad6d09739e1670709277cd9b2c5af",
            64: "8e5bd15288acef0c2d09543b8c58c16a7b356e600400c9939585444d0d82272f",
            65: "4272516224837ad750889eb02906ecef8ff56db54430d4a373652db7e88fd9fb",
            119: "d7964888fe8862ba8ce430a1e98e6f6a885849c6e729e0baf9afd56f75e3cd24",
            120: "8a9f47053031d41a3efb9dbd7e5970862347ab61d7a256b11c76db99ef06cc17",
            127: "08e5f2344d16deb7d3c14fbfbc7663fad630f7d4e95da2e8024d3cdc9ae3c3f2",
            128: "7e73803ac238a3972cb120e5005e58569485dfc2af4dae639e401b2a3a7538c0",
            129: "77c2d9180db3bdbe2af1c5bf432d0d3b54c084f33c7581d5e48b7669b252a618",
            300: "9092596bda7bcebdd7d4a6f1cda49ee7e6471f6dc1c7e671132c04e270b7cbca",
        ]
        var splitter = SplitMix64(seed: 7)
        var allDigests = [UInt8]()
        for n in 0...300 {
            let m = message(n)
            let oneShot = SHA256.hash(m)
            // The same message fed in random pieces (including empty ones) must agree.
            for _ in 0..<4 {
                var sha = SHA256()
                var i = 0
                while i < m.count {
                    let piece = Int(splitter.next() % UInt64(min(m.count - i, 70) + 1))
                    sha.update(m[i..<i + piece])
                    i += piece
                }
                XCTAssertEqual(sha.finalize(), oneShot, "length \(n) split differently")
            }
            if let want = expected[n] { XCTAssertEqual(SHA256.hex(oneShot), want, "length \(n)") }
            allDigests += oneShot
        }
        // hashlib: sha256(concatenation of the 301 digests above).
        XCTAssertEqual(SHA256.hex(SHA256.hash(allDigests)),
                       "577910fb1b85c233d394684f20137013411c28430fdc1bf897fa4bd7eccf0f93")
    }

    func testLargeBufferThroughRawPointer() {
        var rng = SplitMix64(seed: 42)
        let big = rng.bytes(1_000_007)
        var sha = SHA256()
        big.withUnsafeBytes { sha.update(UnsafeRawBufferPointer(rebasing: $0[0..<3])) }
        big.withUnsafeBytes { sha.update(UnsafeRawBufferPointer(rebasing: $0[3...])) }
        XCTAssertEqual(SHA256.hex(sha.finalize()), "ee377c3f688f2dc924797438756f226854323ab07241b1f12450910651411442")
    }

    func testFinalizeResetsForReuse() {
        var sha = SHA256()
        sha.update(Array("garbage".utf8))
        _ = sha.finalize()
        sha.update(Array("abc".utf8))
        XCTAssertEqual(SHA256.hex(sha.finalize()), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testHexFormatting() {
        XCTAssertEqual(SHA256.hex([0x00, 0x0f, 0xa0, 0xff]), "000fa0ff")
        XCTAssertEqual(SHA256.hex([]), "")
    }

    /// Cross-checks against the system's python3 when it exists (skipped otherwise).
    func testAgainstPythonWhenAvailable() throws {
        let python = "/usr/bin/env"
        var rng = SplitMix64(seed: 99)
        let m = rng.bytes(5000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["python3", "-c", "import sys,hashlib;print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw XCTSkip("python3 not runnable: \(error)") }
        input.fileHandleForWriting.write(Data(m))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("python3 hashlib unavailable") }
        let want = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(SHA256.hex(SHA256.hash(m)), want)
    }
}
