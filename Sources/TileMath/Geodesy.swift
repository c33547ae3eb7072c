import CShims
import Foundation

/// Mean earth radius (IUGG R1 = (2a + b) / 3 of WGS84), metres. The spherical model is within
/// about 0.5 % of the ellipsoid, ample for edge lengths and travel times.
public let earthMeanRadiusMeters = 6_371_008.8

/// Great-circle distance on the sphere of radius `earthMeanRadiusMeters` (haversine formula,
/// well-conditioned for the short distances between road nodes).
public func haversineMeters(_ a: GeoPoint, _ b: GeoPoint) -> Double {
    let toRadians = Double.pi / 180
    let phi1 = a.lat * toRadians, phi2 = b.lat * toRadians
    let sinHalfDLat = sin((b.lat - a.lat) * toRadians / 2)
    let sinHalfDLon = sin((b.lon - a.lon) * toRadians / 2)
    let h = sinHalfDLat * sinHalfDLat + cos(phi1) * cos(phi2) * sinHalfDLon * sinHalfDLon
    return 2 * earthMeanRadiusMeters * asin(min(1, h.squareRoot()))
}

/// Initial great-circle bearing from `from` toward `to`, degrees clockwise from north in
/// 0 ..< 360 (0 = north, 90 = east). Equal points give 0.
public func initialBearingDegrees(from: GeoPoint, to: GeoPoint) -> Double {
    // Three sincos calls instead of six sin/cos calls, bit-identical: bearings are most of the
    // trigonometry of a route's steps.
    initialBearingDegrees(from: LatitudeTrig(degrees: from.lat), lon: from.lon, to: LatitudeTrig(degrees: to.lat), lon: to.lon)
}

/// A latitude with its sine and cosine, for bearings that share an end: every bearing measured
/// at one junction has the junction's point at one end, so its sincos is worked out once.
public struct LatitudeTrig {
    public let sin: Double
    public let cos: Double

    @inline(__always) public init(degrees: Double) {
        var s = 0.0, c = 0.0
        offgrid_sincos(degrees * (Double.pi / 180), &s, &c)
        sin = s
        cos = c
    }
}

/// `initialBearingDegrees(from:to:)` with the two latitudes' sines and cosines given: the same
/// arithmetic, so the same bits.
@inline(__always) public func initialBearingDegrees(from: LatitudeTrig, lon lon1: Double, to: LatitudeTrig, lon lon2: Double) -> Double {
    var sinDLon = 0.0, cosDLon = 0.0
    offgrid_sincos((lon2 - lon1) * (Double.pi / 180), &sinDLon, &cosDLon)
    let y = sinDLon * to.cos
    let x = from.cos * to.sin - from.sin * to.cos * cosDLon
    var degrees = atan2(y, x) * 180 / Double.pi
    if degrees < 0 { degrees += 360 }
    // -tiny + 360 rounds to 360.
    return degrees >= 360 ? 0 : degrees
}
