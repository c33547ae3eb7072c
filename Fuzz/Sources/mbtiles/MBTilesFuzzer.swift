import FuzzSupport
import TileMath
import TileSources

/// An MBTiles file (SQLite) from the fuzzer's bytes written to a file: open (schema, metadata),
/// the index at each zoom, tile reads. SQLite's own parsing of the file is SQLite's to fuzz; this
/// target is about what Offgrid does with what SQLite returns.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMBTiles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        try FuzzInput.withFile(bytes, suffix: ".mbtiles") { path in
            let source = try MBTilesSource(path: path)
            let info = source.info
            guard info.minZoom >= 0, info.maxZoom <= 30, info.minZoom <= info.maxZoom else { return }
            try source.prepareIndex(parents: 1, zooms: info.minZoom...info.maxZoom)
            for z in info.minZoom...min(info.maxZoom, info.minZoom + 3) {
                let index = try source.index(under: TileCoordinate(z: 0, x: 0, y: 0), atZoom: z)
                for e in index.prefix(8) { _ = try source.tile(e.coordinate) }
                try source.read(under: TileCoordinate(z: 0, x: 0, y: 0), atZoom: z) { _, _ in }
            }
        }
    }
}

@_cdecl("fuzz_mbtiles_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzMBTiles)
}
