/// What a route query asks for: OSRM's route service parameters.
public struct RouteRequest {
    public enum Geometries: String, CaseIterable, Sendable { case polyline6, polyline, geojson }
    public enum Overview: String, CaseIterable, Sendable { case full, simplified, `false` }
    public enum Format: String, CaseIterable, Sendable { case osrm, geojson }

    /// Waypoints, lon/lat; the first is the start, the last the destination.
    public var coordinates: [(lon: Double, lat: Double)]
    /// Per waypoint: heading and allowed deviation in degrees, or nil.
    public var bearings: [(degrees: Double, range: Double)?] = []
    /// Per waypoint: the snapping radius in metres, or nil (unlimited up to the cap).
    public var radiuses: [Double?] = []
    public var steps = false
    public var geometries = Geometries.polyline6
    public var overview = Overview.simplified
    public var alternatives = 0
    public var algorithm = LegSearch.Algorithm.ch
    public var format = Format.osrm
    /// Per-segment values wanted in each leg's `annotation` (OSRM's `annotations=`); empty for none.
    public var annotations: LegAnnotation.Kinds = []
    /// At via points, leave in the direction arrived in (no U-turn at the waypoint). Off by default:
    /// each leg is then the fastest on its own, which may turn back at the via point.
    public var continueStraight = false
    /// Mapbox-style `voiceInstructions` / `bannerInstructions` on every step (need `steps`).
    public var voiceInstructions = false
    public var bannerInstructions = false

    /// Roads to avoid (`exclude=` on the server; the CLI's `--exclude`/`--avoid` choose the
    /// service's metric instead). Served by a `RouteService` made for it.
    public var avoidance = Avoidance()

    public init(coordinates: [(lon: Double, lat: Double)]) { self.coordinates = coordinates }

    /// Why the request cannot be answered, or nil.
    public func validationProblem() -> String? {
        guard coordinates.count >= 2 else { return "at least two coordinates are needed" }
        for (i, c) in coordinates.enumerated() {
            guard c.lon.isFinite, c.lat.isFinite, (-180...180).contains(c.lon), (-90...90).contains(c.lat) else {
                return "coordinate \(i) (\(c.lon),\(c.lat)) is not a valid lon,lat"
            }
        }
        if !bearings.isEmpty && bearings.count != coordinates.count { return "bearings must be given for every coordinate" }
        if !radiuses.isEmpty && radiuses.count != coordinates.count { return "radiuses must be given for every coordinate" }
        for b in bearings.compactMap({ $0 }) where !(0...360).contains(b.degrees) || !(0...180).contains(b.range) {
            return "bearing \(b.degrees),\(b.range) is out of range (0-360, 0-180)"
        }
        for r in radiuses.compactMap({ $0 }) where !(r >= 0) { return "radius \(r) is not a non-negative number" }
        if alternatives < 0 { return "alternatives must be at least 0" }
        if (voiceInstructions || bannerInstructions) && !steps { return "voice and banner instructions need steps" }
        return nil
    }
}
