import FuzzSupport
import OSMPBF

/// An OSM PBF file: blob framing, zlib, the protobuf-c header and primitive blocks, the block
/// checks, then every node, way, relation, tag, reference and member (PBFReader, one worker).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPBF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzInput.run(data, size) { bytes in
        try FuzzInput.withFile(bytes, suffix: ".osm.pbf") { path in
            let reader = try PBFReader(path: path, threads: 1)
            _ = reader.header.bbox
            var objects = 0
            try reader.forEachBlock(map: { block -> Int in
                var n = 0
                func touch(_ tags: Tags) {
                    for i in 0..<tags.count { _ = block.string(tags.key(i)); _ = block.string(tags.value(i)) }
                }
                block.forEachNode { node in touch(node.tags); n += 1 }
                block.forEachWay { way in touch(way.tags); way.forEachRef { _ in n += 1 } }
                block.forEachRelation { relation in touch(relation.tags); relation.forEachMember { _, _, role in _ = block.string(role); n += 1 } }
                _ = block.timestampRange()
                return n
            }, reduce: { _, n in objects += n })
            try reader.forEachBlockSkippingNodeBlocks(map: { block -> Int in
                var n = 0
                block.forEachWay { _ in n += 1 }
                return n
            }, reduce: { _, _ in })
        }
    }
}

@_cdecl("fuzz_pbf_main")
public func entryPoint(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.main(argc, argv, fuzzPBF)
}
