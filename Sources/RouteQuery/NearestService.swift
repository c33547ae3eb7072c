/// OSRM's nearest response: the `number` nearest roads to one coordinate, nearest first.
public struct NearestResponse: Encodable, Sendable {
    public var code = "Ok"
    public var waypoints: [Waypoint]
}

/// What a nearest query asks: OSRM's nearest service parameters.
public struct NearestRequest: Sendable {
    public var lon: Double
    public var lat: Double
    /// How many roads (one point per road edge).
    public var number = 1
    /// Snapping radius in metres, nil for the 5 km cap (`.infinity`: no limit).
    public var radius: Double?
    public var bearing: (degrees: Double, range: Double)?

    public init(lon: Double, lat: Double) { self.lon = lon; self.lat = lat }
}

extension RouteService {
    /// The nearest roads, or NoSegment when none lies within the radius (or the 5 km cap). Every
    /// road counts, on the main network or not (as OSRM's nearest service): snapping for a route
    /// prefers the main network, so a route's waypoint may differ from the first answer here.
    public func nearest(_ request: NearestRequest) throws(QueryFailure) -> NearestResponse {
        guard request.lon.isFinite, request.lat.isFinite, (-180...180).contains(request.lon), (-90...90).contains(request.lat) else {
            throw QueryFailure(code: "InvalidValue", message: "Invalid coordinate value.")
        }
        guard request.number >= 1 else { throw QueryFailure(code: "InvalidOptions", message: "number must be at least 1") }
        let found = snapper.candidates(lon: request.lon, lat: request.lat, radiusMeters: request.radius,
                                       bearing: request.bearing, limit: request.number)
        guard !found.isEmpty else { throw QueryFailure(code: "NoSegment", message: "Could not find a matching segment for coordinate 0") }
        return NearestResponse(waypoints: found.map { waypoint(Phantom(candidate: $0)) })
    }
}
