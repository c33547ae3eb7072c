import FuzzSupport
import RoutingProfile

/// A travel profile file (profiles/*.json, route-graph --profile).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        _ = try TravelProfile.parse(json: bytes, source: "profile.json")
    }
}

@_cdecl("fuzz_profile_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzProfile)
}
