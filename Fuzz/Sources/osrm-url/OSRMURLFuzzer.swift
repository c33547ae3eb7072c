import FuzzSupport
import OSRMServer
import RouteQuery

/// OSRM HTTP API v1 request targets (route-query serve) answered from the sample's car graph:
/// URL splitting, percent-decoding, the query scanner, every service's options, and the query
/// itself. Every answer must be an OSRM status (200 or 4xx), never a trap or a 5xx.
let handler: OSRMHandler = {
    do {
        return try OSRMHandler(data: RoutingData(path: FuzzInput.sampleGraphPath()), workers: 1)
    } catch {
        fatalError("fuzz: cannot load the sample graph: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSRMURL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        let answer = handler.answer(method: "GET", target: String(decoding: bytes, as: UTF8.self))
        if answer.status >= 500 { fatalError("OSRM answer \(answer.status): \(answer.body)") }
    }
}

@_cdecl("fuzz_osrm_url_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzOSRMURL)
}
