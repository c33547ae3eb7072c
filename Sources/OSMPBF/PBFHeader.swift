import OSMPBFProto
import OffgridCore

/// The file's HeaderBlock: what it claims to contain and how fresh it is.
public struct PBFHeader: Equatable {
    /// Features this reader understands; any other required feature is refused.
    public static let supportedRequiredFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    /// (minLon, minLat, maxLon, maxLat) in degrees, when the header has one.
    public var bbox: (minLon: Double, minLat: Double, maxLon: Double, maxLat: Double)?
    public var requiredFeatures: [String]
    public var optionalFeatures: [String]
    public var writingProgram: String?
    public var source: String?
    /// Seconds since the epoch.
    public var replicationTimestamp: Int64?
    public var replicationSequenceNumber: Int64?
    public var replicationBaseURL: String?

    public static func == (a: PBFHeader, b: PBFHeader) -> Bool {
        a.bbox?.minLon == b.bbox?.minLon && a.bbox?.minLat == b.bbox?.minLat
            && a.bbox?.maxLon == b.bbox?.maxLon && a.bbox?.maxLat == b.bbox?.maxLat
            && a.requiredFeatures == b.requiredFeatures && a.optionalFeatures == b.optionalFeatures
            && a.writingProgram == b.writingProgram && a.source == b.source
            && a.replicationTimestamp == b.replicationTimestamp
            && a.replicationSequenceNumber == b.replicationSequenceNumber
            && a.replicationBaseURL == b.replicationBaseURL
    }

    init(_ h: OSMPBF__HeaderBlock, path: String, offset: Int) throws {
        func strings(_ p: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ n: Int) -> [String] {
            guard let p else { return [] }
            return (0..<n).map { p[$0].map { String(cString: $0) } ?? "" }
        }
        if let b = h.bbox?.pointee {
            bbox = (Double(b.left) / 1e9, Double(b.bottom) / 1e9, Double(b.right) / 1e9, Double(b.top) / 1e9)
        }
        requiredFeatures = strings(h.required_features, h.n_required_features)
        optionalFeatures = strings(h.optional_features, h.n_optional_features)
        writingProgram = h.writingprogram.map { String(cString: $0) }
        source = h.source.map { String(cString: $0) }
        replicationTimestamp = h.has_osmosis_replication_timestamp != 0 ? h.osmosis_replication_timestamp : nil
        replicationSequenceNumber = h.has_osmosis_replication_sequence_number != 0 ? h.osmosis_replication_sequence_number : nil
        replicationBaseURL = h.osmosis_replication_base_url.map { String(cString: $0) }
        let unsupported = requiredFeatures.filter { !Self.supportedRequiredFeatures.contains($0) }
        if !unsupported.isEmpty {
            throw InputError(file: path, offset: offset,
                             "unsupported required feature\(unsupported.count > 1 ? "s" : ""): \(unsupported.joined(separator: ", "))")
        }
    }
}
