/// The bearings of the roads at a step's intersection (OSRM's `intersections[].bearings`),
/// held in the value itself. A junction has a handful of roads, and an array per step was an
/// allocation, a release and a free for each of a long route's hundred steps. A junction with
/// more than `inlineCapacity` roads, or a value outside 0...65535, goes to an array.
public struct IntersectionBearings: RandomAccessCollection, Equatable, Sendable, Encodable, ExpressibleByArrayLiteral {
    public static let inlineCapacity = 12

    /// Bearing `i` is 16-bit lane `i % 4` of word `i / 4`.
    private var lanes: (UInt64, UInt64, UInt64) = (0, 0, 0)
    public private(set) var count = 0
    private var spilled: [Int]?

    public init() {}

    public init(_ bearings: UnsafeBufferPointer<Int>) {
        guard bearings.count <= Self.inlineCapacity, bearings.allSatisfy({ (0...0xFFFF).contains($0) }) else {
            spilled = Array(bearings)
            count = bearings.count
            return
        }
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        for (i, b) in bearings.enumerated() {
            let lane = UInt64(b) << UInt64((i & 3) * 16)
            switch i >> 2 {
            case 0: words.0 |= lane
            case 1: words.1 |= lane
            default: words.2 |= lane
            }
        }
        lanes = words
        count = bearings.count
    }

    public init<S: Sequence>(_ bearings: S) where S.Element == Int {
        let values = Array(bearings)
        self = values.withUnsafeBufferPointer { IntersectionBearings($0) }
    }

    public init(arrayLiteral bearings: Int...) { self.init(bearings) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(i: Int) -> Int {
        precondition(i >= 0 && i < count, "bearing \(i) of \(count)")
        if let spilled { return spilled[i] }
        let word = i < 4 ? lanes.0 : i < 8 ? lanes.1 : lanes.2
        return Int(truncatingIfNeeded: word >> UInt64((i & 3) * 16) & 0xFFFF)
    }

    public static func == (a: IntersectionBearings, b: IntersectionBearings) -> Bool { a.elementsEqual(b) }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.unkeyedContainer()
        for b in self { try c.encode(b) }
    }
}
