/// One road edge as the graph file stores it, 32 bytes, two to a cache line: turning a found
/// path into pieces and steps reads most fields of every edge on it (and of the other roads at
/// its junctions), one miss per edge instead of one per field in separate arrays.
///
/// The file holds `edgeCount + 1` records: the last is a sentinel whose `shapeFirst` is the
/// shape word count and whose other fields are 0, so the words of edge e's inner shape points
/// (those between its end nodes, `EdgeShapes`) are always `records[e].shapeFirst ..< records[e + 1].shapeFirst`.
@frozen public struct EdgeRecord: Equatable, Sendable {
    /// End nodes; the shape runs from → to.
    public var from: UInt32
    public var to: UInt32
    /// The first word of the edge's inner shape points (its end nodes are not stored as shape
    /// points), in the encoding `shapeEncoding` says.
    public var shapeFirst: UInt32
    /// Length along the shape.
    public var lengthCm: UInt32
    /// String indexes (0: none).
    public var name: UInt32
    public var ref: UInt32
    /// km/h × 10 along / against the shape (0: not drivable that way).
    public var speedForward: UInt16
    public var speedBackward: UInt16
    /// `EdgeFlags`.
    public var flags: UInt8
    public var roadClass: UInt8
    /// How the inner shape points are stored: `offsetShape` or `pointShape`.
    public var shapeEncoding: UInt8
    /// `EdgeAttributes` bits (since graph format 12; the byte was the high half of a u16
    /// shape encoding, always 0, until then).
    public var attributes: UInt8

    /// One word per inner point: its latitude and longitude less the `from` node's, as two i16
    /// (latitude in the low half), when every inner point lies within ±32,767 × 1e-7° of it.
    public static let offsetShape: UInt8 = 0
    /// Two words per inner point: its latitude and longitude, i32 each (`E7Point`).
    public static let pointShape: UInt8 = 1

    public init(from: UInt32, to: UInt32, shapeFirst: UInt32, lengthCm: UInt32, name: UInt32, ref: UInt32,
                speedForward: UInt16, speedBackward: UInt16, flags: UInt8, roadClass: UInt8,
                shapeEncoding: UInt8 = EdgeRecord.offsetShape, attributes: UInt8 = 0) {
        self.from = from
        self.to = to
        self.shapeFirst = shapeFirst
        self.lengthCm = lengthCm
        self.name = name
        self.ref = ref
        self.speedForward = speedForward
        self.speedBackward = speedBackward
        self.flags = flags
        self.roadClass = roadClass
        self.shapeEncoding = shapeEncoding
        self.attributes = attributes
    }

    /// The record after the last edge.
    public static func sentinel(shapeWordCount: Int) -> EdgeRecord {
        EdgeRecord(from: 0, to: 0, shapeFirst: UInt32(shapeWordCount), lengthCm: 0, name: 0, ref: 0,
                   speedForward: 0, speedBackward: 0, flags: 0, roadClass: 0)
    }

    /// u32 words per record in the file's `edgeRecords` section.
    public static let words = 8

    /// Deciseconds to drive a whole edge of `lengthCm` at `deciKmh` (km/h × 10, above 0), at
    /// least 1: the weight route-graph gives the edge-based node of that direction, which readers
    /// derive the same way (the file has not stored it since version 6).
    public static func deciseconds(lengthCm: UInt32, deciKmh: UInt16) -> UInt32 {
        // cm / (km/h × 10) → s: (cm / 100) / (deciKmh / 36) = cm × 0.36 / deciKmh; ×10 for deciseconds.
        UInt32(max(1, (Double(lengthCm) * 3.6 / Double(deciKmh)).rounded()))
    }

    /// km/h × 10 in direction `d` (0 along the shape).
    @inline(__always) public func speed(direction d: Int) -> UInt16 { d == 0 ? speedForward : speedBackward }

    /// The weight of driving the edge in direction `d` (0 along the shape), which must be drivable.
    @inline(__always) public func deciseconds(direction d: Int) -> UInt32 {
        Self.deciseconds(lengthCm: lengthCm, deciKmh: speed(direction: d))
    }

    /// Whether `deciseconds(direction:)` is defined and within `bound` for direction `d`: a
    /// speed above 0 and `lengthCm × 3.6 / speed ≤ bound`, tested in integers.
    public func drivable(direction d: Int, within bound: UInt32) -> Bool {
        let speed = speed(direction: d)
        return speed > 0 && UInt64(lengthCm) * 36 <= UInt64(bound) * 10 * UInt64(speed)
    }
}

extension RoadGraph {
    /// The edges as the graph file stores them, with the sentinel; `shapes` from `innerShapes()`.
    func edgeRecords(shapes: InnerShapes) -> [EdgeRecord] {
        var records = (0..<edgeCount).map { e in
            EdgeRecord(from: edgeFrom[e], to: edgeTo[e], shapeFirst: shapes.first[e], lengthCm: edgeLengthCm[e],
                       name: edgeName[e], ref: edgeRef[e], speedForward: edgeSpeedForward[e], speedBackward: edgeSpeedBackward[e],
                       flags: edgeFlags[e], roadClass: edgeRoadClass[e], shapeEncoding: shapes.encoding[e],
                       attributes: edgeAttributes.isEmpty ? 0 : edgeAttributes[e])
        }
        records.append(.sentinel(shapeWordCount: shapes.words.count))
        return records
    }
}
