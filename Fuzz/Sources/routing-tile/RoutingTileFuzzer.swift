import FuzzSupport
import RoutingTiles

/// A routing tile (format v4) behind its CRC: decode, the content checks, and a round trip
/// (a tile that decodes must encode to bytes that decode to the same tile).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoutingTile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { input in
        var bytes = input
        Checksums.fixRoutingTile(&bytes)
        let tile = try RoutingTileCodec.decode(bytes)
        _ = tile.contentProblem()
        let again = try RoutingTileCodec.decode(RoutingTileCodec.encode(tile))
        if again != tile { fatalError("routing tile: decode(encode(tile)) differs from the tile") }
    }
}

@_cdecl("fuzz_routing_tile_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzRoutingTile)
}
