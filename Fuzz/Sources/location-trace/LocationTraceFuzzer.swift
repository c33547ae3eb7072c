import Foundation
import FuzzSupport
import PredictiveCaching
import LocationTraces
import RouteQuery

/// Location traces (route-query trace and match: GPX, CSV, NMEA, NDJSON batches of GeoJSON or OSRM-style traces), route geometries (tilepack-build predict:
/// GeoJSON lines, OSRM responses, encoded polylines).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLocationTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        do { _ = try LocationTrace.parseGPX(Data(bytes), file: "trace.gpx") } catch { FuzzInput.requireOneLine(error) }
        do { _ = try LocationTrace.parseCSV(text, file: "trace.csv") } catch { FuzzInput.requireOneLine(error) }
        do { _ = try NMEATrace.parse(text, file: "trace.nmea") } catch { FuzzInput.requireOneLine(error) }
        do { _ = try TraceBatch.parse(text, file: "traces.ndjson") } catch { FuzzInput.requireOneLine(error) }
        do { _ = try PredictiveRegions.parseRoute(text) } catch { FuzzInput.requireOneLine(error) }
        do { _ = try Polyline.decode(text, precision: 6) } catch { FuzzInput.requireOneLine(error) }
        _ = try PredictiveRegions.decodePolyline(text, precision: nil)
    }
}

@_cdecl("fuzz_location_trace_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzLocationTrace)
}
