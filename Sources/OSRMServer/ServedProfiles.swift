import OffgridCore
import RoutingProfile
import RouteQuery

/// The graphs a server answers from, one per travel mode, and the URL profile names that choose
/// them: OSRM's and Mapbox's (`driving`, `car`, Mapbox's `driving-traffic`; `cycling`, `bicycle`,
/// `bike`; `walking`, `foot`). A name that is none of these, or one of a mode
/// the server has no graph for, is refused with the modes it has.
struct ServedProfiles<Graph: Sendable>: Sendable {
    private let graphs: [TravelMode: Graph]

    init(_ graphs: [(mode: TravelMode, graph: Graph, path: String)]) throws {
        var byMode: [TravelMode: Graph] = [:]
        for g in graphs {
            guard byMode[g.mode] == nil else { throw InputError(file: g.path, "a second graph for \(g.mode.rawValue): serve one per travel mode") }
            byMode[g.mode] = g.graph
        }
        guard !byMode.isEmpty else { throw InputError("no graph to serve") }
        self.graphs = byMode
    }

    static func mode(ofProfile name: String) -> TravelMode? {
        switch name {
        case "driving", "car", "driving-traffic": return .car
        case "cycling", "bicycle", "bike": return .bicycle
        case "walking", "foot": return .foot
        default: return nil
        }
    }

    /// The graph for the URL's profile name.
    func graph(for profile: String) throws(QueryFailure) -> Graph {
        if let mode = Self.mode(ofProfile: profile), let graph = graphs[mode] { return graph }
        let served = TravelMode.allCases.filter { graphs[$0] != nil }.map(\.stepMode).joined(separator: ", ")
        throw QueryFailure(code: "InvalidUrl", message: "Profile \(profile) is not served here (served: \(served))")
    }
}
