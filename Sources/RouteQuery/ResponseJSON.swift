import OffgridCore

/// Compact JSON of the batch answer types, written straight into a `JSONSink` (bytes for the
/// batch lines and the HTTP bodies, or a string): `route-query batch --full --steps` spends most
/// of its time rendering, and the generic `Encodable` path (a tree of nodes, then the writer)
/// was measurably slower there. The text must equal `JSONEncoding.string(value, pretty: false)`
/// byte for byte (keys in sorted order, nil fields left out, the same number spelling): a test
/// compares both on many routes.
extension BatchAnswer {
    public func writeJSON(to out: inout String) { render(into: &out) }
    /// The answer line straight into a byte buffer, without making a `String` per line.
    public func writeJSON(to out: inout JSONBuffer) { render(into: &out) }

    func render<Out: JSONSink & ~Copyable>(into out: inout Out) {
        out.raw("{\"code\":")
        out.string(code)
        if let distanceMeters { out.raw(",\"distance_m\":"); out.double(distanceMeters) }
        if let durationSeconds { out.raw(",\"duration_s\":"); out.double(durationSeconds) }
        out.raw(",\"id\":")
        out.value(id)
        if let message { out.raw(",\"message\":"); out.string(message) }
        if let route { out.raw(",\"route\":"); route.render(into: &out) }
        out.raw("}")
    }
}

extension RouteResponse {
    public func writeJSON(to out: inout String) { render(into: &out) }
    public func writeJSON(to out: inout JSONBuffer) { render(into: &out) }

    func render<Out: JSONSink & ~Copyable>(into out: inout Out) {
        out.raw("{")
        if let code { out.raw("\"code\":"); out.string(code); out.raw(",") }
        out.raw("\"routes\":")
        writeArray(routes, to: &out) { $0.writeJSON(to: &$1) }
        out.raw(",\"waypoints\":")
        writeArray(waypoints, to: &out) { $0.writeJSON(to: &$1) }
        out.raw("}")
    }
}

extension Route {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{\"distance\":")
        out.double(distance)
        out.raw(",\"duration\":")
        out.double(duration)
        if let geometry { out.raw(",\"geometry\":"); geometry.writeJSON(to: &out) }
        out.raw(",\"legs\":")
        writeArray(legs, to: &out) { $0.writeJSON(to: &$1) }
        out.raw(",\"weight\":")
        out.double(weight)
        out.raw(",\"weight_name\":")
        out.string(weightName)
        out.raw("}")
    }
}

extension RouteLeg {
    /// The leg's compact JSON, for other modules' responses that hold legs (map matching).
    public func writeCompactJSON(to out: inout JSONBuffer) { writeJSON(to: &out) }

    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{")
        if let annotation { out.raw("\"annotation\":"); annotation.writeJSON(to: &out); out.raw(",") }
        out.raw("\"distance\":")
        out.double(distance)
        out.raw(",\"duration\":")
        out.double(duration)
        out.raw(",\"steps\":")
        writeArray(steps, to: &out) { $0.writeJSON(to: &$1) }
        out.raw(",\"summary\":")
        out.string(summary)
        out.raw(",\"weight\":")
        out.double(weight)
        out.raw("}")
    }
}

extension LegAnnotation {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        var first = true
        func key(_ name: StaticString) { out.raw(first ? "{\"" : ",\""); out.raw(name); out.raw("\":"); first = false }
        if let datasources { key("datasources"); writeArray(datasources, to: &out) { $1.int($0) } }
        if let distance { key("distance"); writeArray(distance, to: &out) { $1.double($0) } }
        if let duration { key("duration"); writeArray(duration, to: &out) { $1.double($0) } }
        if let speed { key("speed"); writeArray(speed, to: &out) { $1.double($0) } }
        if let weight { key("weight"); writeArray(weight, to: &out) { $1.double($0) } }
        out.raw(first ? "{}" : "}")
    }
}

extension RouteStepResponse {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{")
        if let bannerInstructions { out.raw("\"bannerInstructions\":"); writeArray(bannerInstructions, to: &out) { $0.writeJSON(to: &$1) }; out.raw(",") }
        out.raw("\"distance\":")
        out.double(distance)
        out.raw(",\"driving_side\":")
        out.string(drivingSide)
        out.raw(",\"duration\":")
        out.double(duration)
        out.raw(",\"geometry\":")
        geometry.writeJSON(to: &out)
        out.raw(",\"intersections\":")
        out.raw("[")
        intersection.writeJSON(to: &out)
        out.raw("]")
        out.raw(",\"maneuver\":")
        maneuver.writeJSON(to: &out)
        out.raw(",\"mode\":")
        out.string(mode)
        out.raw(",\"name\":")
        out.string(name)
        out.raw(",\"ref\":")
        out.string(ref)
        if let rotaryName { out.raw(",\"rotary_name\":"); out.string(rotaryName) }
        if let voiceInstructions { out.raw(",\"voiceInstructions\":"); writeArray(voiceInstructions, to: &out) { $0.writeJSON(to: &$1) } }
        out.raw(",\"weight\":")
        out.double(weight)
        out.raw("}")
    }
}

extension RouteManeuver {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{\"bearing_after\":")
        out.int(bearingAfter)
        out.raw(",\"bearing_before\":")
        out.int(bearingBefore)
        if let exit { out.raw(",\"exit\":"); out.int(exit) }
        out.raw(",\"location\":")
        location.writeJSON(to: &out)
        if let modifier { out.raw(",\"modifier\":"); out.string(modifier) }
        out.raw(",\"type\":")
        out.string(type)
        out.raw("}")
    }
}

extension RouteIntersection {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{\"bearings\":")
        writeArray(bearings, to: &out) { $1.int($0) }
        out.raw(",\"entry\":[")
        for k in bearings.indices {
            if k > 0 { out.raw(",") }
            out.raw(k == self.out ? "true" : "false")
        }
        out.raw("]")
        if let `in` { out.raw(",\"in\":"); out.int(`in`) }
        out.raw(",\"location\":")
        location.writeJSON(to: &out)
        if let out_ = self.out { out.raw(",\"out\":"); out.int(out_) }
        out.raw("}")
    }
}

extension Waypoint {
    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("{\"distance\":")
        out.double(distance)
        out.raw(",\"hint\":")
        out.string(hint)
        out.raw(",\"location\":")
        location.writeJSON(to: &out)
        out.raw(",\"name\":")
        out.string(name)
        out.raw("}")
    }
}

extension RouteGeometry {
    public func writeCompactJSON(to out: inout JSONBuffer) { writeJSON(to: &out) }

    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        switch self {
        case .polyline(let text): text.writeJSON(to: &out)
        case .lineString(let points):
            out.raw("{\"coordinates\":")
            writeArray(points, to: &out) { $0.writeJSON(to: &$1) }
            out.raw(",\"type\":\"LineString\"}")
        }
    }
}

extension LonLat {
    public func writeCompactJSON(to out: inout JSONBuffer) { writeJSON(to: &out) }

    func writeJSON<Out: JSONSink & ~Copyable>(to out: inout Out) {
        out.raw("[")
        out.double(lon)
        out.raw(",")
        out.double(lat)
        out.raw("]")
    }
}

@inline(__always) func writeArray<Items: Collection, Out: JSONSink & ~Copyable>(_ items: Items, to out: inout Out,
                                                                              _ element: (Items.Element, inout Out) -> Void) {
    out.raw("[")
    for (i, item) in items.enumerated() {
        if i > 0 { out.raw(",") }
        element(item, &out)
    }
    out.raw("]")
}
