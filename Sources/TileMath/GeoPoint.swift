/// A position in WGS84 degrees. Longitude first, as in GeoJSON.
public struct GeoPoint: Hashable, Sendable {
    public var lon: Double
    public var lat: Double

    public init(lon: Double, lat: Double) {
        self.lon = lon
        self.lat = lat
    }
}
