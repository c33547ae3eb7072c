import FuzzSupport
import Glibc
import RouteQuery

/// `route-query batch` input: NDJSON lines (the fast line scanner, the exact reader's path and
/// its messages), answered from the sample's car graph with full route responses.
let runner: BatchRunner = {
    do {
        return BatchRunner(data: try RoutingData(path: FuzzInput.sampleGraphPath()),
                           defaults: RouteRequest(coordinates: []), full: true, threads: 1)
    } catch {
        fatalError("fuzz: cannot load the sample graph: \(error)")
    }
}()
let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatchLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        try FuzzInput.withFile(bytes, suffix: ".ndjson") { path in
            let input = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(input) }
            _ = try runner.run(input: input, output: devNull)
        }
    }
}

@_cdecl("fuzz_batch_line_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzBatchLine)
}
