/// `--format geojson`: the route as a LineString feature (its OSRM fields but legs as
/// properties), then each waypoint as a Point feature.
public struct RouteFeatureCollection: Encodable, Sendable {
    public var type = "FeatureCollection"
    public var features: [Feature]

    public enum Geometry: Encodable, Sendable {
        /// The route's geometry as the request spelled it (null with `overview=false`).
        case route(RouteGeometry?)
        case point(LonLat)

        enum CodingKeys: String, CodingKey { case type, coordinates }

        public func encode(to encoder: Encoder) throws {
            switch self {
            case .route(let g?): try g.encode(to: encoder)
            case .route(nil):
                var c = encoder.singleValueContainer()
                try c.encodeNil()
            case .point(let p):
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode("Point", forKey: .type)
                try c.encode(p, forKey: .coordinates)
            }
        }
    }

    public enum Properties: Encodable, Sendable {
        case route(distance: Double, duration: Double, weight: Double, weightName: String)
        case waypoint(index: Int, name: String, distance: Double)

        enum CodingKeys: String, CodingKey {
            case distance, duration, weight, weightName = "weight_name", waypoint, name
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case let .route(distance, duration, weight, weightName):
                try c.encode(distance, forKey: .distance)
                try c.encode(duration, forKey: .duration)
                try c.encode(weight, forKey: .weight)
                try c.encode(weightName, forKey: .weightName)
            case let .waypoint(index, name, distance):
                try c.encode(index, forKey: .waypoint)
                try c.encode(name, forKey: .name)
                try c.encode(distance, forKey: .distance)
            }
        }
    }

    public struct Feature: Encodable, Sendable {
        public var type = "Feature"
        public var geometry: Geometry
        public var properties: Properties
    }

    public init(route: Route, waypoints: [Waypoint]) {
        features = [Feature(geometry: .route(route.geometry),
                            properties: .route(distance: route.distance, duration: route.duration,
                                               weight: route.weight, weightName: route.weightName))]
        for (i, w) in waypoints.enumerated() {
            features.append(Feature(geometry: .point(w.location), properties: .waypoint(index: i, name: w.name, distance: w.distance)))
        }
    }
}
