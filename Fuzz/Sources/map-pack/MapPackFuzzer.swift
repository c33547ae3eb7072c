import FuzzSupport
import MapPacks

/// A map pack behind its container CRCs: open, every tile entry, and `verify()`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapPack(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { input in
        var bytes = input
        Checksums.fixPack(&bytes)
        let pack = try MapPackReader(bytes: bytes, name: "fuzz.pack")
        _ = pack.header.relativePath
        for entry in pack.entries {
            do { _ = try pack.tile(entry) } catch { FuzzInput.requireOneLine(error) }
            do { _ = try pack.tile(entry.coordinate) } catch { FuzzInput.requireOneLine(error) }
        }
        try pack.verify()
    }
}

@_cdecl("fuzz_map_pack_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzMapPack)
}
