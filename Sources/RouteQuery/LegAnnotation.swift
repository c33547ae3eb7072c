import TileMath

/// OSRM's `legs[i].annotation`: one value per segment of the leg's full geometry (between
/// consecutive points), whatever `overview` the route has.
public struct LegAnnotation: Encodable, Sendable, Equatable {
    /// Which arrays a request wants. `all` is what OSRM's `annotations=true` gives, less `nodes`
    /// (the graph keeps no OSM node ids) and `metadata`.
    public struct Kinds: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let duration = Kinds(rawValue: 1)
        public static let distance = Kinds(rawValue: 2)
        public static let speed = Kinds(rawValue: 4)
        public static let weight = Kinds(rawValue: 8)
        public static let datasources = Kinds(rawValue: 16)
        public static let all: Kinds = [.duration, .distance, .speed, .weight, .datasources]

        /// The names OSRM uses, in its order.
        public static let names: [(String, Kinds)] = [("duration", .duration), ("distance", .distance), ("speed", .speed),
                                                      ("weight", .weight), ("datasources", .datasources)]

        /// `true`, `false` or a comma-separated list of names; nil if a name is unknown.
        public init?(parsing text: Substring) {
            switch text {
            case "true": self = .all
            case "false": self = []
            default:
                var kinds: Kinds = []
                for name in text.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let k = Kinds.names.first(where: { $0.0 == name })?.1 else { return nil }
                    kinds.insert(k)
                }
                self = kinds
            }
        }
    }

    /// Metres per segment (0.01 m).
    public var distance: [Double]?
    /// Seconds per segment (0.1 s); turn costs land on the first segment of the edge turned onto.
    public var duration: [Double]?
    /// Metres per second (0.1), 0 where a segment takes no time.
    public var speed: [Double]?
    /// The weight is the duration (weight_name "duration").
    public var weight: [Double]?
    /// Always 0: one data source, the profile.
    public var datasources: [Int]?

    /// The annotation of a leg driven as `pieces` (the same pieces its geometry is made of: the
    /// first point of every piece after the first is the previous piece's last, so segments line up).
    static func of(_ pieces: [DrivenPiece], points: LegPoints, kinds: Kinds) -> LegAnnotation {
        var meters: [Double] = [], seconds: [Double] = []
        for p in pieces {
            let n = p.points.count - 1
            guard n > 0 else { continue }
            var lengths = [Double](repeating: 0, count: n)
            var sum = 0.0
            let o = p.points.lowerBound, lat = points.lat, lon = points.lon
            for k in 0..<n {
                lengths[k] = haversineMeters(GeoPoint(lon: lon[o + k], lat: lat[o + k]), GeoPoint(lon: lon[o + k + 1], lat: lat[o + k + 1]))
                sum += lengths[k]
            }
            // The tiles' lengths are the reference (as for leg distances): scale the shape to them,
            // and spread the piece's time by length (evenly over a piece of no length).
            for k in 0..<n {
                let share = sum > 0 ? lengths[k] / sum : 1 / Double(n)
                meters.append(p.meters * share)
                seconds.append(p.seconds * share)
            }
        }
        var a = LegAnnotation()
        if kinds.contains(.distance) { a.distance = meters.map { ($0 * 100).rounded() / 100 } }
        if kinds.contains(.duration) { a.duration = seconds.map(round1) }
        if kinds.contains(.weight) { a.weight = seconds.map(round1) }
        if kinds.contains(.speed) { a.speed = zip(meters, seconds).map { m, s in s > 0 ? round1(m / s) : 0 } }
        if kinds.contains(.datasources) { a.datasources = [Int](repeating: 0, count: meters.count) }
        return a
    }
}
