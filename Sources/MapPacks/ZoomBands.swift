import Foundation
import OffgridCore
import TileMath

/// A zoom band: the zooms one map pack spans. A pack holds its parent tile (at `minZoom`) and
/// every descendant down to `maxZoom`.
public struct ZoomBand: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let minZoom: Int
    public let maxZoom: Int

    public init(_ minZoom: Int, _ maxZoom: Int) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
    }

    public var zooms: ClosedRange<Int> { minZoom...maxZoom }
    /// "6-10" (also the directory name of the band's packs).
    public var description: String { "\(minZoom)-\(maxZoom)" }
    public static func < (a: ZoomBand, b: ZoomBand) -> Bool { a.minZoom < b.minZoom }
}

/// The bands packs are cut into, and how a requested zoom range widens to whole bands.
public struct ZoomBands: Sendable {
    public let bands: [ZoomBand]

    /// 0-5, 6-10, 11-14, 15-16.
    public static let standard = ZoomBands(unchecked: [ZoomBand(0, 5), ZoomBand(6, 10), ZoomBand(11, 14), ZoomBand(15, 16)])
    /// The widest band accepted: a pack of a band spanning k zooms holds up to (4^k − 1)/3 tiles.
    public static let maxBandZooms = 8

    private init(unchecked bands: [ZoomBand]) { self.bands = bands }

    /// Bands must be ascending, non-overlapping, within zooms 0-30 and at most
    /// `maxBandZooms` zooms wide. Gaps are allowed (zooms in a gap cannot be requested).
    public init(_ bands: [ZoomBand]) throws {
        guard !bands.isEmpty else { throw GeometryError("no zoom bands") }
        for (i, b) in bands.enumerated() {
            guard b.minZoom >= 0, b.maxZoom <= WebMercator.maxZoom, b.minZoom <= b.maxZoom else {
                throw GeometryError("band \(b) is not a zoom range within 0-\(WebMercator.maxZoom)")
            }
            guard b.maxZoom - b.minZoom + 1 <= ZoomBands.maxBandZooms else {
                throw GeometryError("band \(b) spans more than \(ZoomBands.maxBandZooms) zooms")
            }
            if i > 0 && bands[i - 1].maxZoom >= b.minZoom {
                throw GeometryError("bands \(bands[i - 1]) and \(b) overlap or are not in ascending order")
            }
        }
        self.bands = bands
    }

    /// Parses a bands file: `{"bands": [[0,5],[6,10],…]}` (TileJSON-like) or `{"bands": ["0-5", …]}`,
    /// or the bare array.
    public static func parse(json text: String) throws -> ZoomBands {
        guard let object = try? JSONReader.parse(text) else {
            throw GeometryError("bands file is not valid JSON")
        }
        let list: [JSONValue]
        if let dict = object.objectValue {
            guard let l = dict["bands"]?.arrayValue else { throw GeometryError("bands file has no \"bands\" array") }
            list = l
        } else if let l = object.arrayValue {
            list = l
        } else {
            throw GeometryError("bands file must be a JSON object with a \"bands\" array")
        }
        var bands: [ZoomBand] = []
        for (i, item) in list.enumerated() {
            if let pair = item.arrayValue, pair.count == 2, let a = zoomNumber(pair[0]), let b = zoomNumber(pair[1]) {
                bands.append(ZoomBand(a, b))
            } else if let s = item.stringValue, let r = try? parseZoomRange(s) {
                bands.append(ZoomBand(r.lowerBound, r.upperBound))
            } else if let d = item.objectValue, let a = d["minzoom"].flatMap(zoomNumber), let b = d["maxzoom"].flatMap(zoomNumber) {
                bands.append(ZoomBand(a, b))
            } else {
                throw GeometryError("band \(i) is not [minzoom, maxzoom], \"min-max\" or {\"minzoom\":…, \"maxzoom\":…}")
            }
        }
        return try ZoomBands(bands)
    }

    private static func zoomNumber(_ v: JSONValue) -> Int? {
        guard let d = v.doubleValue, d == d.rounded(), d >= 0, d <= 30 else { return nil }
        return Int(d)
    }

    /// The bands a zoom range touches, or an error naming a requested zoom no band holds.
    public func bands(for zooms: ClosedRange<Int>) throws -> [ZoomBand] {
        for z in zooms where !bands.contains(where: { $0.zooms.contains(z) }) {
            throw GeometryError("zoom \(z) is in no band (bands: \(bands.map(\.description).joined(separator: ", ")))")
        }
        return bands.filter { $0.maxZoom >= zooms.lowerBound && $0.minZoom <= zooms.upperBound }
    }

    /// The requested range widened to whole bands (8-15 → 6-16 with the standard bands).
    public func widen(_ zooms: ClosedRange<Int>) throws -> ClosedRange<Int> {
        let touched = try bands(for: zooms)
        return touched.first!.minZoom...touched.last!.maxZoom
    }
}

/// Parses "6-16" or "12" into a zoom range within 0-30.
public func parseZoomRange(_ text: String) throws -> ClosedRange<Int> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    guard parts.count == 1 || parts.count == 2, let a = Int(parts[0]), let b = Int(parts.count == 2 ? parts[1] : parts[0]) else {
        throw GeometryError("zoom range must be MIN-MAX or one zoom, e.g. 6-16; got \"\(text)\"")
    }
    guard a >= 0, b <= WebMercator.maxZoom, a <= b else {
        throw GeometryError("zoom range \(text) must lie within 0-\(WebMercator.maxZoom) with MIN ≤ MAX")
    }
    return a...b
}
