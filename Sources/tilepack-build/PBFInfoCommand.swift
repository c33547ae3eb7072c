import ArgumentParser
import Foundation
import OSMPBF
import OffgridCore
import ToolSupport

/// `tilepack-build pbf-info`: what a PBF file holds, as JSON (like `osmium fileinfo -e`).
struct PBFInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pbf-info",
        abstract: "Print an OSM PBF file's header and object counts as JSON.",
        discussion: "Example:\n  tilepack-build pbf-info samples/liechtenstein.osm.pbf")

    @Argument(help: "The .osm.pbf file.") var input: String
    @Option(help: "Decoding threads (default: the number of cores).") var threads: Int?

    func run() throws {
        let reader = try PBFReader(path: input, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
        let s = try reader.statistics()
        let h = reader.header
        var header: [String: JSONValue] = [
            "requiredFeatures": .array(h.requiredFeatures.map { .string($0) }),
            "optionalFeatures": .array(h.optionalFeatures.map { .string($0) }),
        ]
        if let b = h.bbox { header["bbox"] = .array([b.minLon, b.minLat, b.maxLon, b.maxLat].map { .double($0) }) }
        if let w = h.writingProgram { header["writingProgram"] = .string(w) }
        if let t = h.replicationTimestamp { header["replicationTimestamp"] = .string(ISO8601.string(t)) }
        if let n = h.replicationSequenceNumber { header["replicationSequenceNumber"] = .int(Int(n)) }
        if let u = h.replicationBaseURL { header["replicationBaseURL"] = .string(u) }
        var data: [String: JSONValue] = ["blocks": .int(s.blocks), "nodes": .int(s.nodes), "ways": .int(s.ways), "relations": .int(s.relations)]
        func ids(_ a: Int64, _ b: Int64) -> JSONValue { .array([.int(Int(a)), .int(Int(b))]) }
        if s.nodes > 0 {
            data["bbox"] = .array([s.minLonNano, s.minLatNano, s.maxLonNano, s.maxLatNano].map { .double(Double($0) / 1e9) })
            data["nodeIds"] = ids(s.minNodeId, s.maxNodeId)
        }
        if s.ways > 0 { data["wayIds"] = ids(s.minWayId, s.maxWayId) }
        if s.relations > 0 { data["relationIds"] = ids(s.minRelationId, s.maxRelationId) }
        if s.firstTimestamp <= s.lastTimestamp {
            data["timestamps"] = .array([.string(ISO8601.string(s.firstTimestamp)), .string(ISO8601.string(s.lastTimestamp))])
        }
        let summary: JSONValue = .object(["file": .string(input), "size": .int(Int(reader.fileSize)),
                                          "header": .object(header), "data": .object(data)])
        StdIO.out(JSONWriter.string(summary) + "\n")
    }
}
