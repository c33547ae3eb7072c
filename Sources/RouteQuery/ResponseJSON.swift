import OffgridCore

/// Compact JSON of the batch answer types, written straight into a string: `route-query batch
/// --full --steps` spends most of its time rendering, and the generic `Encodable` path (a tree of
/// nodes, then the writer) was measurably slower there. The text must equal
/// `JSONEncoding.string(value, pretty: false)` byte for byte (keys in sorted order, nil fields left
/// out, the same number spelling): a test compares both on many routes.
extension BatchAnswer {
    public func writeJSON(to out: inout String) {
        out += "{\"code\":"
        JSONWriter.writeString(code, to: &out)
        if let distanceMeters { out += ",\"distance_m\":"; JSONWriter.writeDouble(distanceMeters, to: &out) }
        if let durationSeconds { out += ",\"duration_s\":"; JSONWriter.writeDouble(durationSeconds, to: &out) }
        out += ",\"id\":"
        JSONWriter.write(id, to: &out, pretty: false)
        if let message { out += ",\"message\":"; JSONWriter.writeString(message, to: &out) }
        if let route { out += ",\"route\":"; route.writeJSON(to: &out) }
        out += "}"
    }
}

extension RouteResponse {
    public func writeJSON(to out: inout String) {
        out += "{"
        if let code { out += "\"code\":"; JSONWriter.writeString(code, to: &out); out += "," }
        out += "\"routes\":"
        writeArray(routes, to: &out) { $0.writeJSON(to: &$1) }
        out += ",\"waypoints\":"
        writeArray(waypoints, to: &out) { $0.writeJSON(to: &$1) }
        out += "}"
    }
}

extension Route {
    func writeJSON(to out: inout String) {
        out += "{\"distance\":"
        JSONWriter.writeDouble(distance, to: &out)
        out += ",\"duration\":"
        JSONWriter.writeDouble(duration, to: &out)
        if let geometry { out += ",\"geometry\":"; geometry.writeJSON(to: &out) }
        out += ",\"legs\":"
        writeArray(legs, to: &out) { $0.writeJSON(to: &$1) }
        out += ",\"weight\":"
        JSONWriter.writeDouble(weight, to: &out)
        out += ",\"weight_name\":"
        JSONWriter.writeString(weightName, to: &out)
        out += "}"
    }
}

extension RouteLeg {
    func writeJSON(to out: inout String) {
        out += "{"
        if let annotation { out += "\"annotation\":"; annotation.writeJSON(to: &out); out += "," }
        out += "\"distance\":"
        JSONWriter.writeDouble(distance, to: &out)
        out += ",\"duration\":"
        JSONWriter.writeDouble(duration, to: &out)
        out += ",\"steps\":"
        writeArray(steps, to: &out) { $0.writeJSON(to: &$1) }
        out += ",\"summary\":"
        JSONWriter.writeString(summary, to: &out)
        out += ",\"weight\":"
        JSONWriter.writeDouble(weight, to: &out)
        out += "}"
    }
}

extension LegAnnotation {
    func writeJSON(to out: inout String) {
        var first = true
        func key(_ name: String) { out += first ? "{\"" : ",\""; out += name; out += "\":"; first = false }
        if let datasources { key("datasources"); writeArray(datasources, to: &out) { $1 += String($0) } }
        if let distance { key("distance"); writeArray(distance, to: &out) { JSONWriter.writeDouble($0, to: &$1) } }
        if let duration { key("duration"); writeArray(duration, to: &out) { JSONWriter.writeDouble($0, to: &$1) } }
        if let speed { key("speed"); writeArray(speed, to: &out) { JSONWriter.writeDouble($0, to: &$1) } }
        if let weight { key("weight"); writeArray(weight, to: &out) { JSONWriter.writeDouble($0, to: &$1) } }
        out += first ? "{}" : "}"
    }
}

extension RouteStepResponse {
    func writeJSON(to out: inout String) {
        out += "{"
        if let bannerInstructions { out += "\"bannerInstructions\":"; writeArray(bannerInstructions, to: &out) { $0.writeJSON(to: &$1) }; out += "," }
        out += "\"distance\":"
        JSONWriter.writeDouble(distance, to: &out)
        out += ",\"driving_side\":"
        JSONWriter.writeString(drivingSide, to: &out)
        out += ",\"duration\":"
        JSONWriter.writeDouble(duration, to: &out)
        out += ",\"geometry\":"
        geometry.writeJSON(to: &out)
        out += ",\"intersections\":"
        writeArray(intersections, to: &out) { $0.writeJSON(to: &$1) }
        out += ",\"maneuver\":"
        maneuver.writeJSON(to: &out)
        out += ",\"mode\":"
        JSONWriter.writeString(mode, to: &out)
        out += ",\"name\":"
        JSONWriter.writeString(name, to: &out)
        out += ",\"ref\":"
        JSONWriter.writeString(ref, to: &out)
        if let voiceInstructions { out += ",\"voiceInstructions\":"; writeArray(voiceInstructions, to: &out) { $0.writeJSON(to: &$1) } }
        out += ",\"weight\":"
        JSONWriter.writeDouble(weight, to: &out)
        out += "}"
    }
}

extension RouteManeuver {
    func writeJSON(to out: inout String) {
        out += "{\"bearing_after\":"
        out += String(bearingAfter)
        out += ",\"bearing_before\":"
        out += String(bearingBefore)
        if let exit { out += ",\"exit\":"; out += String(exit) }
        out += ",\"location\":"
        location.writeJSON(to: &out)
        if let modifier { out += ",\"modifier\":"; JSONWriter.writeString(modifier, to: &out) }
        out += ",\"type\":"
        JSONWriter.writeString(type, to: &out)
        out += "}"
    }
}

extension RouteIntersection {
    func writeJSON(to out: inout String) {
        out += "{\"bearings\":"
        writeArray(bearings, to: &out) { $1 += String($0) }
        out += ",\"entry\":"
        writeArray(entry, to: &out) { $1 += $0 ? "true" : "false" }
        if let `in` { out += ",\"in\":"; out += String(`in`) }
        out += ",\"location\":"
        location.writeJSON(to: &out)
        if let out_ = self.out { out += ",\"out\":"; out += String(out_) }
        out += "}"
    }
}

extension Waypoint {
    func writeJSON(to out: inout String) {
        out += "{\"distance\":"
        JSONWriter.writeDouble(distance, to: &out)
        out += ",\"hint\":"
        JSONWriter.writeString(hint, to: &out)
        out += ",\"location\":"
        location.writeJSON(to: &out)
        out += ",\"name\":"
        JSONWriter.writeString(name, to: &out)
        out += "}"
    }
}

extension RouteGeometry {
    func writeJSON(to out: inout String) {
        switch self {
        case .polyline(let text): JSONWriter.writeString(text, to: &out)
        case .lineString(let points):
            out += "{\"coordinates\":"
            writeArray(points, to: &out) { $0.writeJSON(to: &$1) }
            out += ",\"type\":\"LineString\"}"
        }
    }
}

extension LonLat {
    func writeJSON(to out: inout String) {
        out += "["
        JSONWriter.writeDouble(lon, to: &out)
        out += ","
        JSONWriter.writeDouble(lat, to: &out)
        out += "]"
    }
}

@inline(__always) func writeArray<T>(_ items: [T], to out: inout String, _ element: (T, inout String) -> Void) {
    out += "["
    for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        element(item, &out)
    }
    out += "]"
}
