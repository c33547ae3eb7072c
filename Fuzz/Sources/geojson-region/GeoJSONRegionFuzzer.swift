import FuzzSupport
import TileMath

/// GeoJSON regions (`--region` files, routing region polygons): the general parser with and
/// without radius/buffer defaults, the polygons-only parser, and the polygon region.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGeoJSONRegion(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        do { _ = try Region.parse(geoJSON: text) } catch { FuzzInput.requireOneLine(error) }
        do { _ = try Region.parse(geoJSON: text, defaultRadius: 500, defaultBuffer: 200) } catch { FuzzInput.requireOneLine(error) }
        do { _ = try Region.parse(geoJSON: text, polygonsOnly: true) } catch { FuzzInput.requireOneLine(error) }
        _ = try PolygonRegion.parse(geoJSON: text)
    }
}

@_cdecl("fuzz_geojson_region_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzGeoJSONRegion)
}
