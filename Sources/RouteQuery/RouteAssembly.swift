/// Builds the JSON of one route (OSRM's `routes[i]`) from its legs.
struct RouteAssembly {
    let data: RoutingData
    let steps: StepBuilder
    let request: RouteRequest

    func route(legs: [LegSearch.Leg], phantoms: [Phantom]) -> [String: Any] {
        var legJSON: [[String: Any]] = []
        var lat: [Double] = [], lon: [Double] = []
        var distance = 0.0, duration = 0.0
        for (i, leg) in legs.enumerated() {
            let pieces = leg.pieces(data, source: phantoms[i], target: phantoms[i + 1])
            let meters = pieces.reduce(0) { $0 + $1.meters }
            let seconds = Double(leg.weight) / 10
            distance += meters
            duration += seconds
            for p in pieces {
                let skip = lat.isEmpty ? 0 : 1
                lat.append(contentsOf: p.lat.dropFirst(skip))
                lon.append(contentsOf: p.lon.dropFirst(skip))
            }
            var l: [String: Any] = ["distance": round1(meters), "duration": round1(seconds), "weight": round1(seconds),
                                    "summary": summary(pieces)]
            if request.steps {
                let target = phantoms[i + 1]
                l["steps"] = steps.steps(pieces, arriveLocation: (target.lon, target.lat)).map(stepJSON)
            } else {
                l["steps"] = [Any]()
            }
            legJSON.append(l)
        }
        var r: [String: Any] = ["distance": round1(distance), "duration": round1(duration), "weight": round1(duration),
                                "weight_name": "duration", "legs": legJSON]
        switch request.overview {
        case .full: r["geometry"] = geometry(lat, lon)
        case .simplified:
            let keep = LineSimplification.keptIndexes(latE7: lat.map { Int32(($0 * 1e7).rounded()) },
                                                      lonE7: lon.map { Int32(($0 * 1e7).rounded()) },
                                                      toleranceMeters: simplifyTolerance(distance))
            r["geometry"] = geometry(keep.map { lat[$0] }, keep.map { lon[$0] })
        case .false: break
        }
        return r
    }

    /// OSRM simplifies the overview to about zoom 14-ish detail; scale the tolerance with length.
    func simplifyTolerance(_ meters: Double) -> Double { max(1, min(50, meters / 2000)) }

    func geometry(_ lat: [Double], _ lon: [Double]) -> Any {
        switch request.geometries {
        case .polyline6: return Polyline.encode(zip(lat, lon).map { (lat: $0, lon: $1) }, precision: 6)
        case .polyline: return Polyline.encode(zip(lat, lon).map { (lat: $0, lon: $1) }, precision: 5)
        case .geojson: return ["type": "LineString", "coordinates": zip(lon, lat).map { [round6($0), round6($1)] }]
        }
    }

    /// The names of the two roads driven longest, in route order (OSRM's leg summary).
    func summary(_ pieces: [DrivenPiece]) -> String {
        var meters: [UInt32: Double] = [:]
        var firstSeen: [UInt32: Int] = [:]
        for (i, p) in pieces.enumerated() {
            let name = data.edgeName[p.edge]
            guard name != 0 else { continue }
            meters[name, default: 0] += p.meters
            if firstSeen[name] == nil { firstSeen[name] = i }
        }
        let top = meters.sorted { ($0.value, -firstSeen[$0.key]!) > ($1.value, -firstSeen[$1.key]!) }.prefix(2)
        return top.sorted { firstSeen[$0.key]! < firstSeen[$1.key]! }.map { data.string($0.key) }.joined(separator: ", ")
    }

    func stepJSON(_ s: RouteStep) -> [String: Any] {
        var maneuver: [String: Any] = ["type": s.type.rawValue, "bearing_before": Int(s.bearingBefore) % 360,
                                       "bearing_after": Int(s.bearingAfter) % 360, "location": [round6(s.location.lon), round6(s.location.lat)]]
        if let m = s.modifier { maneuver["modifier"] = m.rawValue }
        if let e = s.exit { maneuver["exit"] = e }
        var intersection: [String: Any] = ["location": [round6(s.location.lon), round6(s.location.lat)],
                                           "bearings": s.intersectionBearings,
                                           "entry": s.intersectionBearings.indices.map { $0 == s.intersectionOut }]
        if let i = s.intersectionIn { intersection["in"] = i }
        if let o = s.intersectionOut { intersection["out"] = o }
        return ["distance": round1(s.meters), "duration": round1(s.seconds), "weight": round1(s.seconds),
                "name": s.name, "ref": s.ref, "mode": "driving", "driving_side": "right",
                "geometry": geometry(s.lat, s.lon), "maneuver": maneuver, "intersections": [intersection]]
    }

    /// `--format geojson`: the route as a LineString feature, waypoints as points.
    static func featureCollection(route: [String: Any], waypoints: [[String: Any]]) -> [String: Any] {
        var properties = route
        let geometry = properties.removeValue(forKey: "geometry") ?? NSNullValue.value
        properties.removeValue(forKey: "legs")
        var features: [[String: Any]] = [["type": "Feature", "geometry": geometry, "properties": properties]]
        for (i, w) in waypoints.enumerated() {
            features.append(["type": "Feature", "geometry": ["type": "Point", "coordinates": w["location"]!],
                             "properties": ["waypoint": i, "name": w["name"]!, "distance": w["distance"]!]])
        }
        return ["type": "FeatureCollection", "features": features]
    }
}

import Foundation
enum NSNullValue { static let value: Any = NSNull() }
