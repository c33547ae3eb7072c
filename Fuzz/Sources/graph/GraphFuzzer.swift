import FuzzSupport
import RouteQuery
import RoutingGraph

/// A graph file (format v11) behind its CRCs: open (header, section table, the content checks),
/// `verify()` (section CRCs, shortcut halves, core distances), then a few queries on it: a route
/// with steps between two Liechtenstein places, a snap, and a route with alternatives.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraph(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { input in
        var bytes = input
        Checksums.fixGraph(&bytes)
        try FuzzInput.withFile(bytes, suffix: ".chg") { path in
            let routing = try RoutingData(path: path)
            try routing.file.verify()
            let service = try RouteService(data: routing)
            var request = RouteRequest(coordinates: [(9.5215, 47.1410), (9.4990, 47.0660)])
            request.steps = true
            _ = service.route(request)
            _ = service.snap(lon: 9.52, lat: 47.14, radius: nil, bearing: nil)
            request.alternatives = 2
            request.steps = false
            _ = service.route(request)
        }
    }
}
