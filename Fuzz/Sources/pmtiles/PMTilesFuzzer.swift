import FuzzSupport
import TileMath
import TileSources

/// A PMTiles v3 archive: header, root directory, metadata (internal compression), leaf
/// directories, the index under a parent at each zoom, and tile reads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPMTiles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        try FuzzInput.withFile(bytes, suffix: ".pmtiles") { path in
            let source = try PMTilesSource(path: path)
            let entries = try source.allEntries()
            let info = source.info
            guard info.minZoom >= 0, info.maxZoom <= 30, info.minZoom <= info.maxZoom else { return }
            for z in info.minZoom...min(info.maxZoom, info.minZoom + 3) {
                let index = try source.index(under: TileCoordinate(z: 0, x: 0, y: 0), atZoom: z)
                for e in index.prefix(8) { _ = try source.tile(e.coordinate) }
                try source.read(under: TileCoordinate(z: 0, x: 0, y: 0), atZoom: z) { _, _ in }
            }
            _ = entries.count
        }
    }
}

@_cdecl("fuzz_pmtiles_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzPMTiles)
}
