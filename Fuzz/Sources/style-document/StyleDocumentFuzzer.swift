import FuzzSupport
import StylePacks

/// A MapLibre/Mapbox GL style document: what a style pack build reads from style.json
/// (sources, sprites, glyphs, font stacks).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStyleDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        let style = try StyleDocument(bytes: bytes, file: "style.json")
        _ = style.unresolvedFonts
    }
}

@_cdecl("fuzz_style_document_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzStyleDocument)
}
