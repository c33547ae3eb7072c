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
    let toRadians = Double.pi / 180
    let phi1 = from.lat * toRadians, phi2 = to.lat * toRadians
    let dLon = (to.lon - from.lon) * toRadians
    // Three sincos calls instead of six sin/cos calls, bit-identical: bearings are most of the
    // trigonometry of a route's steps.
    var sinPhi1 = 0.0, cosPhi1 = 0.0, sinPhi2 = 0.0, cosPhi2 = 0.0, sinDLon = 0.0, cosDLon = 0.0
    offgrid_sincos(phi1, &sinPhi1, &cosPhi1)
    offgrid_sincos(phi2, &sinPhi2, &cosPhi2)
    offgrid_sincos(dLon, &sinDLon, &cosDLon)
    let y = sinDLon * cosPhi2
    let x = cosPhi1 * sinPhi2 - sinPhi1 * cosPhi2 * cosDLon
    var degrees = atan2(y, x) * 180 / Double.pi
    if degrees < 0 { degrees += 360 }
    // -tiny + 360 rounds to 360.
    return degrees >= 360 ? 0 : degrees
}
