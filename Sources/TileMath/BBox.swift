/// An axis-aligned lon/lat rectangle in degrees, closed on all sides.
///
/// Planar in lon/lat (the routing grid is lon/lat too); boxes never wrap across the antimeridian.
public struct BBox: Hashable, Sendable, CustomStringConvertible {
    public var minLon: Double
    public var minLat: Double
    public var maxLon: Double
    public var maxLat: Double

    /// Takes the values as given; use `init(parsing:)` for validated user input.
    public init(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        self.minLon = minLon
        self.minLat = minLat
        self.maxLon = maxLon
        self.maxLat = maxLat
    }

    /// Parses "minLon,minLat,maxLon,maxLat" (spaces around numbers allowed), requiring four
    /// finite numbers, longitudes in −180…180, latitudes in −90…90 and min < max on both axes.
    public init(parsing text: String) throws {
        let names = ["minLon", "minLat", "maxLon", "maxLat"]
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 4 else {
            throw GeometryError("bbox must be 4 comma-separated numbers minLon,minLat,maxLon,maxLat; got \(fields.count) value\(fields.count == 1 ? "" : "s") in \"\(text)\"")
        }
        var values: [Double] = []
        for (i, field) in fields.enumerated() {
            let trimmed = field.trimmingSpaces()
            guard let v = Double(trimmed), !trimmed.hasPrefix("0x"), !trimmed.hasPrefix("-0x") else {
                throw GeometryError("bbox \(names[i]) is not a number: \"\(trimmed)\"")
            }
            guard v.isFinite else { throw GeometryError("bbox \(names[i]) is not a finite number: \"\(trimmed)\"") }
            let limit = i % 2 == 0 ? 180.0 : 90.0
            guard abs(v) <= limit else {
                throw GeometryError("bbox \(names[i]) \(shortestDecimal(v)) is outside -\(Int(limit))…\(Int(limit))")
            }
            values.append(v)
        }
        guard values[0] < values[2] else {
            throw GeometryError("bbox minLon \(shortestDecimal(values[0])) must be less than maxLon \(shortestDecimal(values[2]))")
        }
        guard values[1] < values[3] else {
            throw GeometryError("bbox minLat \(shortestDecimal(values[1])) must be less than maxLat \(shortestDecimal(values[3]))")
        }
        self.init(minLon: values[0], minLat: values[1], maxLon: values[2], maxLat: values[3])
    }

    /// The smallest box containing both.
    public func union(_ other: BBox) -> BBox {
        BBox(minLon: min(minLon, other.minLon), minLat: min(minLat, other.minLat),
             maxLon: max(maxLon, other.maxLon), maxLat: max(maxLat, other.maxLat))
    }

    /// Closed boxes: sharing only an edge or a corner counts as intersecting.
    public func intersects(_ other: BBox) -> Bool {
        minLon <= other.maxLon && other.minLon <= maxLon && minLat <= other.maxLat && other.minLat <= maxLat
    }

    /// Closed: points on the border are contained.
    public func contains(_ point: GeoPoint) -> Bool {
        point.lon >= minLon && point.lon <= maxLon && point.lat >= minLat && point.lat <= maxLat
    }

    /// "minLon,minLat,maxLon,maxLat" with the fewest digits that read back exactly,
    /// e.g. "9.25,47,9.5,47.25" — the same syntax `init(parsing:)` accepts.
    public var description: String {
        "\(shortestDecimal(minLon)),\(shortestDecimal(minLat)),\(shortestDecimal(maxLon)),\(shortestDecimal(maxLat))"
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
