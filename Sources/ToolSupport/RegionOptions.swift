import ArgumentParser
import Foundation
import OffgridCore
import TileMath

/// The region options of every command that takes a region the way `tilepack-build maps` does:
/// a GeoJSON file, a bounding box, or a circle, with the radius and buffer that points and lines
/// of a region file get when they carry none. Defined once, so the commands spell, document and
/// parse them alike.
public struct RegionOptions: ParsableArguments {
    @Option(help: "Region as a GeoJSON file (Point, LineString, Polygon, their Multi forms; Feature or FeatureCollection).")
    public var region: String?
    @Option(help: "Region as minLon,minLat,maxLon,maxLat.") public var bbox: String?
    @Option(help: "Region as a circle around LON,LAT (needs --radius).") public var around: String?
    @Option(help: "Radius in metres for --around and for points without a radius_m property.") public var radius: Double?
    @Option(help: "Buffer in metres for lines without a buffer_m property.") public var buffer: Double?

    public init() {}

    /// How many of --region, --bbox and --around are given (commands want exactly one).
    public var givenCount: Int { [region != nil, bbox != nil, around != nil].filter { $0 }.count }

    /// The region the options name; nil when none of --region, --bbox, --around is given.
    public func parse() throws -> Region? {
        if let region { return try geoJSONRegion(file: region) }
        if let bbox {
            do { return try Region.bbox(BBox(parsing: bbox)) } catch { throw ValidationError("--bbox: \(error)") }
        }
        guard let around else { return nil }
        let parts = around.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lon = parts[0], let lat = parts[1] else { throw ValidationError("--around must be LON,LAT") }
        do { return try Region.around(GeoPoint(lon: lon, lat: lat), radiusMeters: radius ?? 0) } catch {
            throw ValidationError("--around: \(error)")
        }
    }

    /// A region read from a GeoJSON file, its points and lines widened by --radius / --buffer
    /// where they carry no radius_m / buffer_m.
    public func geoJSONRegion(file: String) throws -> Region {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw InputError(file: file, "cannot read the region file")
        }
        do { return try Region.parse(geoJSON: text, defaultRadius: radius, defaultBuffer: buffer) } catch {
            throw InputError(file: file, "\(error)")
        }
    }
}
