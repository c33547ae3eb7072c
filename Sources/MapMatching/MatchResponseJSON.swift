import OffgridCore
import RouteQuery

/// Compact JSON of match answers written straight into bytes: the generic `Encodable` path (a
/// tree of nodes, then the writer) took a fifth of `route-query match --batch` with full
/// geometries. The text equals `JSONEncoding.string(value, pretty: false)` byte for byte (keys
/// sorted, nil fields left out, explicit nulls where the types write them); a test compares
/// both on many matches.
extension MatchAnswer {
    public func writeCompactJSON(to out: inout JSONBuffer) {
        switch self {
        case .matched(let response): response.writeCompactJSON(to: &out)
        case .failure(let failure):
            out.raw("{\"code\":")
            out.string(failure.code)
            out.raw(",\"message\":")
            out.string(failure.message)
            out.raw("}")
        }
    }
}

extension MatchResponse {
    public func writeCompactJSON(to out: inout JSONBuffer) {
        out.raw("{\"code\":")
        out.string(code)
        out.raw(",\"matchings\":[")
        for (i, m) in matchings.enumerated() {
            if i > 0 { out.raw(",") }
            m.writeCompactJSON(to: &out)
        }
        out.raw("],\"tracepoints\":[")
        for (i, t) in tracepoints.enumerated() {
            if i > 0 { out.raw(",") }
            if let t { t.writeCompactJSON(to: &out) } else { out.raw("null") }
        }
        out.raw("]}")
    }
}

extension Matching {
    func writeCompactJSON(to out: inout JSONBuffer) {
        out.raw("{\"confidence\":")
        out.double(confidence)
        out.raw(",\"distance\":")
        out.double(distance)
        out.raw(",\"duration\":")
        out.double(duration)
        if let geometry { out.raw(",\"geometry\":"); geometry.writeCompactJSON(to: &out) }
        out.raw(",\"legs\":[")
        for (i, leg) in legs.enumerated() {
            if i > 0 { out.raw(",") }
            leg.writeCompactJSON(to: &out)
        }
        out.raw("],\"weight\":")
        out.double(weight)
        out.raw(",\"weight_name\":")
        out.string(weightName)
        out.raw("}")
    }
}

extension Tracepoint {
    func writeCompactJSON(to out: inout JSONBuffer) {
        out.raw("{\"alternatives_count\":")
        out.int(alternativesCount)
        out.raw(",\"distance\":")
        out.double(distance)
        out.raw(",\"hint\":")
        out.string(hint)
        out.raw(",\"location\":")
        location.writeCompactJSON(to: &out)
        out.raw(",\"matchings_index\":")
        out.int(matchingsIndex)
        out.raw(",\"name\":")
        out.string(name)
        out.raw(",\"waypoint_index\":")
        if let waypointIndex { out.int(waypointIndex) } else { out.raw("null") }
        out.raw("}")
    }
}
