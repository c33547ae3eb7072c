import RouteQuery

/// osrm-routed's checks after parsing, in its order and with its codes: list lengths and option
/// ranges (`InvalidOptions`), sizes (`TooBig`), coordinate values (`InvalidValue`). What passes
/// is a request the library answers exactly as the CLI would.
public struct OSRMLimits: Sendable {
    /// Most waypoints in a route (osrm-routed's --max-viaroute-size).
    public var maxRouteCoordinates = 500
    /// Most cells (sources × destinations) in a table. osrm-routed's --max-table-size counts
    /// coordinates per side; its default 100 is 10,000 cells.
    public var maxTableCells = 10_000
    /// Most results of a nearest query (osrm-routed's --max-nearest-size).
    public var maxNearest = 100
    /// Most alternatives (osrm-routed's --max-alternatives).
    public var maxAlternatives = 3
    /// Most fixes in a match request (osrm-routed's --max-matching-size).
    public var maxMatchCoordinates = 100

    public init() {}

    func check(_ q: OSRMQuery) throws(QueryFailure) {
        switch q {
        case .route(let r):
            try lists(r.coordinates.count, r.bearings, r.radiuses)
            guard r.coordinates.count >= 2 else { throw invalidOptions("Number of coordinates needs to be at least two.") }
            try bearingRanges(r.bearings)
            if (r.voiceInstructions || r.bannerInstructions) && !r.steps {
                throw invalidOptions("voice_instructions and banner_instructions need steps=true")
            }
            guard r.coordinates.count <= maxRouteCoordinates else {
                throw QueryFailure(code: "TooBig", message: "Number of entries \(r.coordinates.count) is higher than current maximum (\(maxRouteCoordinates))")
            }
            guard r.alternatives <= maxAlternatives else {
                throw QueryFailure(code: "TooBig", message: "Requested number of alternatives is higher than current maximum (\(maxAlternatives))")
            }
            try values(r.coordinates)
            try radiuses(r.radiuses)
        case .table(let t):
            try lists(t.coordinates.count, t.bearings, t.radiuses)
            guard t.coordinates.count >= 2 else { throw invalidOptions("Number of coordinates needs to be at least two.") }
            try bearingRanges(t.bearings)
            for list in [t.sources, t.destinations] {
                if let list, list.contains(where: { $0 >= t.coordinates.count }) { throw invalidOptions("") }
            }
            try values(t.coordinates)
            let cells = (t.sources?.count ?? t.coordinates.count) * (t.destinations?.count ?? t.coordinates.count)
            guard cells <= maxTableCells else { throw QueryFailure(code: "TooBig", message: "Too many table coordinates") }
            try radiuses(t.radiuses)
            // The table searches from every snapped point as route's default snapping does.
            if t.bearings.contains(where: { $0 != nil }) || t.radiuses.contains(where: { $0 != nil }) {
                throw invalidOptions("bearings and radiuses are not supported by the table service of this server")
            }
        case .match(let m):
            let count = m.fixes.count
            for (name, n) in [("radiuses", m.radiuses.count), ("timestamps", m.hasTimestamps ? count : 0)] where n > 0 && n != count {
                throw invalidOptions("Number of elements in \(name) size \(n) does not match coordinate size \(count)")
            }
            guard count >= 2 else { throw invalidOptions("Number of coordinates needs to be at least two.") }
            guard count <= maxMatchCoordinates else {
                throw QueryFailure(code: "TooBig", message: "Number of entries \(count) is higher than current maximum (\(maxMatchCoordinates))")
            }
            try values(m.fixes.map { ($0.lon, $0.lat) })
            if let failure = m.validationFailure() { throw failure }
        case .nearest(let n):
            try lists(n.coordinates.count, n.bearings, n.radiuses)
            guard n.coordinates.count == 1 else { throw invalidOptions("Only one input coordinate is supported") }
            try bearingRanges(n.bearings)
            guard n.number >= 1 else { throw invalidOptions("") }
            guard n.number <= maxNearest else {
                throw QueryFailure(code: "TooBig", message: "Number of results \(n.number) is higher than current maximum (\(maxNearest))")
            }
            try values(n.coordinates)
            try radiuses(n.radiuses)
        }
    }

    func invalidOptions(_ message: String) -> QueryFailure { QueryFailure(code: "InvalidOptions", message: message) }

    func lists(_ count: Int, _ bearings: [(degrees: Double, range: Double)?], _ radiuses: [Double?]) throws(QueryFailure) {
        for (name, n) in [("bearings", bearings.count), ("radiuses", radiuses.count)] where n > 0 && n != count {
            throw invalidOptions("Number of elements in \(name) size \(n) does not match coordinate size \(count)")
        }
    }

    /// osrm-routed answers a bad bearing with an empty message.
    func bearingRanges(_ bearings: [(degrees: Double, range: Double)?]) throws(QueryFailure) {
        for b in bearings.compactMap({ $0 }) where !(0...360).contains(b.degrees) || !(0...180).contains(b.range) {
            throw invalidOptions("")
        }
    }

    func values(_ coordinates: [(lon: Double, lat: Double)]) throws(QueryFailure) {
        for c in coordinates where !((-180...180).contains(c.lon) && (-90...90).contains(c.lat)) {
            throw QueryFailure(code: "InvalidValue", message: "Invalid coordinate value.")
        }
    }

    /// A negative radius matches no road: osrm-routed says NoSegment for that coordinate.
    func radiuses(_ radiuses: [Double?]) throws(QueryFailure) {
        if let i = radiuses.firstIndex(where: { ($0 ?? 0) < 0 }) {
            throw QueryFailure(code: "NoSegment", message: "Could not find a matching segment for coordinate \(i)")
        }
    }
}
