import FuzzSupport
import RoutingPacks
import RoutingTiles

/// A routing pack behind its container CRCs: open (preamble, header, index), then every entry
/// (inflate, CRC32, SHA-256) decoded as a routing tile.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoutingPack(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { input in
        var bytes = input
        Checksums.fixPack(&bytes)
        let pack = try RoutingPackReader(bytes: bytes, name: "fuzz.routing.pack")
        _ = pack.header
        for i in 0..<pack.tileCount {
            do {
                let tile = try RoutingTileCodec.decode(try pack.tileBytes(at: i))
                _ = tile.contentProblem()
            } catch {
                FuzzInput.requireOneLine(error)
            }
        }
    }
}

@_cdecl("fuzz_routing_pack_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzRoutingPack)
}
