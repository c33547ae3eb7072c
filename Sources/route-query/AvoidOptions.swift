import ArgumentParser
import OffgridCore
import RouteQuery

/// Roads a query avoids: classes (`--exclude`) and closed places (`--avoid`). With neither, the
/// graph's own hierarchy answers (the fastest); with either, a metric without those roads is
/// customized once for the process and searched instead (`AvoidanceMetric`).
struct AvoidOptions: ParsableArguments {
    @Option(help: "Road classes to avoid, comma-separated: motorway, toll, ferry, unpaved, tunnel; also Mapbox's point(LON LAT) (closes the roads within 20 m).")
    var exclude: String?
    @Option(help: "Closed places: a GeoJSON file of Points with a \"radius\" property in metres, Polygons and MultiPolygons; roads inside are closed.")
    var avoid: String?

    func avoidance() throws -> Avoidance {
        var out = Avoidance()
        if let exclude {
            do { out = try Avoidance.parseExclude(exclude) } catch { throw InputError("--exclude: \(error.description)") }
        }
        if let avoid { out.closures += try Closure.read(geoJSON: avoid) }
        return out
    }

    /// The metric to search (nil without anything to avoid), made for `data`.
    func metric(_ data: RoutingData) throws -> AvoidanceMetric? {
        let a = try avoidance()
        return try AvoidanceMetrics(data: data, capacity: 1).metric(for: a)
    }
}
