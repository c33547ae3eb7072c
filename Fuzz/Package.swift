// swift-tools-version:5.10
// Coverage-guided fuzz targets for Offgrid's readers (docs/TESTING.md): one executable per reader,
// built apart from the main package so its release builds carry no instrumentation:
//   swift build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// (`make fuzz` does this). Each target defines LLVMFuzzerTestOneInput; libFuzzer supplies main().
import PackageDescription

/// Target name (the binary is fuzz-<name>) and the directory of its one source file.
let targets = [
    "pbf", "routing-tile", "routing-pack", "map-pack", "style-pack", "graph", "pmtiles", "mbtiles",
    "json", "geojson-region", "repository-index", "style-document", "osrm-url", "batch-line", "profile",
    "location-trace",
]

let package = Package(
    name: "OffgridFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Offgrid", path: "..")],
    targets: [
        // libFuzzer's driver called from the executable's entry point (see FuzzInput.main).
        .target(name: "CFuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver", .product(name: "OffgridReaders", package: "Offgrid")]),
    ] + targets.map { name in
        .executableTarget(name: "fuzz-\(name)",
                          dependencies: ["FuzzSupport", .product(name: "OffgridReaders", package: "Offgrid")],
                          path: "Sources/\(name)")
    }
)
