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
        var header: [String: Any] = [
            "requiredFeatures": h.requiredFeatures,
            "optionalFeatures": h.optionalFeatures,
        ]
        if let b = h.bbox { header["bbox"] = [b.minLon, b.minLat, b.maxLon, b.maxLat] }
        if let w = h.writingProgram { header["writingProgram"] = w }
        if let t = h.replicationTimestamp { header["replicationTimestamp"] = ISO8601.string(t) }
        if let n = h.replicationSequenceNumber { header["replicationSequenceNumber"] = n }
        if let u = h.replicationBaseURL { header["replicationBaseURL"] = u }
        var data: [String: Any] = ["blocks": s.blocks, "nodes": s.nodes, "ways": s.ways, "relations": s.relations]
        if s.nodes > 0 {
            data["bbox"] = [Double(s.minLonNano) / 1e9, Double(s.minLatNano) / 1e9,
                            Double(s.maxLonNano) / 1e9, Double(s.maxLatNano) / 1e9]
            data["nodeIds"] = [s.minNodeId, s.maxNodeId]
        }
        if s.ways > 0 { data["wayIds"] = [s.minWayId, s.maxWayId] }
        if s.relations > 0 { data["relationIds"] = [s.minRelationId, s.maxRelationId] }
        if s.firstTimestamp <= s.lastTimestamp {
            data["timestamps"] = [ISO8601.string(s.firstTimestamp), ISO8601.string(s.lastTimestamp)]
        }
        print(JSONOutput.string(["file": input, "size": reader.fileSize, "header": header, "data": data]))
    }
}
