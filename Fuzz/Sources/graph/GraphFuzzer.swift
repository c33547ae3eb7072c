import FuzzSupport
import RouteQuery
import RoutingGraph

/// A graph file (format v12) behind its CRCs: open (header, section table, the roads' content
/// checks), a few queries on it (the hierarchy checked block by block as they reach it): a route
/// with steps across the seed graphs' cell of Vaduz (Tests/fuzz/make-seeds), a snap, and a route
/// with alternatives; then `verify()` (section CRCs, the whole hierarchy, shortcut halves, core
/// distances), which must find any damage the queries' block checks found.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraph(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { input in
        var bytes = input
        Checksums.fixGraph(&bytes)
        try FuzzInput.withFile(bytes, suffix: ".chg") { path in
            let routing = try RoutingData(path: path, use: .oneOff)
            let service = try RouteService(data: routing)
            var request = RouteRequest(coordinates: [(9.5222, 47.1418), (9.5283, 47.1478)])
            request.steps = true
            _ = service.route(request)
            _ = service.snap(lon: 9.525, lat: 47.145, radius: nil, bearing: nil)
            request.alternatives = 2
            request.steps = false
            _ = service.route(request)
            let damage = routing.damage
            try routing.file.verify()
            if let damage { fatalError("the block checks found damage that verify() passed: \(damage)") }
        }
    }
}

@_cdecl("fuzz_graph_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzGraph)
}
