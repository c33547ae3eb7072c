import FuzzSupport
import PackRepository
import RoutingPacks

/// A pack repository's indexes (docs/FORMATS.md): the repository index, a tileset's and a
/// routing data set's version index, and an unpacked routing directory's manifest.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRepositoryIndex(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        do { _ = try RepositoryIndex.decode(bytes, source: "index.json") } catch { FuzzInput.requireOneLine(error) }
        do { _ = try TilesetVersionIndex.decode(bytes, source: "tilesets/x/versions.json") } catch { FuzzInput.requireOneLine(error) }
        do { _ = try RoutingVersionIndex.decode(bytes, source: "routing/x/versions.json") } catch { FuzzInput.requireOneLine(error) }
        _ = try UnpackedRoutingDirectory.Manifest.decode(bytes, path: "manifest.json")
    }
}

@_cdecl("fuzz_repository_index_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzRepositoryIndex)
}
