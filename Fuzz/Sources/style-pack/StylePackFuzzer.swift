import FuzzSupport
import StylePacks

/// A style pack behind its container CRCs: open (header resource table against the index, every
/// resource's CRC32 and SHA-256), every resource's bytes, the glyph ranges of each font stack.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStylePack(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { input in
        var bytes = input
        Checksums.fixPack(&bytes)
        let pack = try StylePack(bytes: bytes, name: "fuzz.stylepack")
        _ = pack.styleJSON
        for r in pack.resources { _ = pack.bytes(of: r); _ = pack.resource(named: r.path) }
        for stack in pack.fontStacks { _ = pack.glyphRanges(of: stack) }
    }
}

@_cdecl("fuzz_style_pack_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzStylePack)
}
