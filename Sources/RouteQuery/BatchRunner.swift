import Foundation
import OffgridCore

/// Runs NDJSON route queries on every core; answers come out in input order.
public struct BatchRunner {
    let data: RoutingData
    let defaults: RouteRequest
    let full: Bool
    let durationOnly: Bool
    let threads: Int

    /// `durationOnly`: answer with the travel time alone (a CH distance query, no path unpacking).
    public init(data: RoutingData, defaults: RouteRequest, full: Bool, durationOnly: Bool = false, threads: Int) {
        self.data = data
        self.defaults = defaults
        self.full = full
        self.durationOnly = durationOnly
        self.threads = max(1, threads)
    }

    public struct Report {
        public var queries = 0
        public var seconds = 0.0
        public var latenciesMicros: [Double] = []
        public var text: String {
            let l = latenciesMicros.sorted()
            func p(_ q: Double) -> String {
                guard !l.isEmpty else { return "-" }
                return String(format: "%.1f", l[min(l.count - 1, Int(Double(l.count) * q))])
            }
            return String(format: "batch: %d queries in %.3f s (%.0f queries/s); latency µs p50 %@ p90 %@ p99 %@ max %@",
                          queries, seconds, Double(queries) / max(seconds, 1e-9), p(0.5), p(0.9), p(0.99), l.last.map { String(format: "%.1f", $0) } ?? "-")
        }
    }

    public func run(input: FileHandle, output: FileHandle) throws -> Report {
        var report = Report()
        let started = MonotonicClock.nanoseconds()
        let services = try (0..<threads).map { _ in try RouteService(data: data) }
        var pending = Data()
        let chunkLines = 512
        func flush(_ lines: [Substring]) {
            var answers = [String](repeating: "", count: lines.count)
            var latencies = [Double](repeating: 0, count: lines.count)
            let per = (lines.count + threads - 1) / threads
            answers.withUnsafeMutableBufferPointer { a in
                latencies.withUnsafeMutableBufferPointer { lat in
                    DispatchQueue.concurrentPerform(iterations: threads) { t in
                        let lo = t * per, hi = min(lines.count, lo + per)
                        guard lo < hi else { return }
                        for i in lo..<hi {
                            let t0 = MonotonicClock.nanoseconds()
                            a[i] = answer(services[t], String(lines[i]))
                            lat[i] = Double(MonotonicClock.nanoseconds() - t0) / 1000
                        }
                    }
                }
            }
            report.queries += lines.count
            report.latenciesMicros += latencies
            output.write((answers.joined(separator: "\n") + "\n").data(using: .utf8)!)
        }
        var buffered: [Substring] = []
        while true {
            let chunk = input.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            pending.append(chunk)
            guard let lastNewline = pending.lastIndex(of: 0x0A) else { continue }
            let text = String(decoding: pending[pending.startIndex...lastNewline], as: UTF8.self)
            pending = Data(pending[(lastNewline + 1)...])
            buffered += text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            while buffered.count >= chunkLines * threads {
                flush(Array(buffered.prefix(chunkLines * threads)))
                buffered.removeFirst(chunkLines * threads)
            }
        }
        if !pending.isEmpty { buffered.append(Substring(String(decoding: pending, as: UTF8.self))) }
        buffered.removeAll { $0.trimmingCharacters(in: .whitespaces).isEmpty }
        if !buffered.isEmpty { flush(buffered) }
        report.seconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
        return report
    }

    /// One query line → one answer line.
    func answer(_ service: RouteService, _ line: String) -> String {
        var id: Any = NSNullValue.value
        func reply(_ fields: [String: Any]) -> String {
            var f = fields
            f["id"] = id
            return JSONOutput.string(f, pretty: false)
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)), let q = object as? [String: Any] else {
            return reply(["code": "InvalidInput", "message": "not a JSON object"])
        }
        id = q["id"] ?? NSNullValue.value
        do {
            let request = try BatchQuery.request(q, defaults: defaults)
            if full || (q["full"] as? Bool == true) || (q["steps"] as? Bool == true) {
                var route = service.route(request)
                let code = route["code"] as? String ?? "InvalidInput"
                guard code == "Ok", let first = (route["routes"] as? [[String: Any]])?.first else {
                    return reply(["code": code, "message": route["message"] ?? ""])
                }
                route.removeValue(forKey: "code")
                return reply(["code": "Ok", "distance_m": first["distance"] ?? 0, "duration_s": first["duration"] ?? 0, "route": route])
            }
            if durationOnly {
                return reply(["code": "Ok", "duration_s": round1(try service.duration(request))])
            }
            let s = try service.summary(request)
            return reply(["code": "Ok", "distance_m": round1(s.distance), "duration_s": round1(s.duration)])
        } catch let f as RouteService.Failure {
            return reply(f.json)
        } catch {
            return reply(["code": "InvalidInput", "message": "\(error)"])
        }
    }
}

/// A batch line's fields as a route request.
enum BatchQuery {
    struct Problem: Error, CustomStringConvertible { let description: String }

    static func point(_ v: Any?, _ name: String) throws -> (lon: Double, lat: Double) {
        guard let a = v as? [Any], a.count == 2, let lon = (a[0] as? NSNumber)?.doubleValue, let lat = (a[1] as? NSNumber)?.doubleValue else {
            throw Problem(description: "\"\(name)\" must be [lon, lat]")
        }
        return (lon, lat)
    }

    static func request(_ q: [String: Any], defaults: RouteRequest) throws -> RouteRequest {
        var coordinates = [try point(q["from"], "from")]
        if let via = q["via"] as? [Any] { coordinates += try via.map { try point($0, "via") } }
        coordinates.append(try point(q["to"], "to"))
        var r = defaults
        r.coordinates = coordinates
        if let s = q["steps"] as? Bool { r.steps = s }
        if let g = q["geometries"] as? String {
            guard let v = RouteRequest.Geometries(rawValue: g) else { throw Problem(description: "unknown geometries \(g)") }
            r.geometries = v
        }
        if let o = q["overview"] as? String {
            guard let v = RouteRequest.Overview(rawValue: o) else { throw Problem(description: "unknown overview \(o)") }
            r.overview = v
        }
        if let b = q["bearings"] as? [Any] {
            r.bearings = try b.map { item in
                if item is NSNull { return nil }
                guard let p = item as? [NSNumber], p.count == 2 else { throw Problem(description: "bearings must be [deg, range] or null") }
                return (p[0].doubleValue, p[1].doubleValue)
            }
        }
        if let rs = q["radiuses"] as? [Any] { r.radiuses = rs.map { ($0 as? NSNumber)?.doubleValue } }
        if let problem = r.validationProblem() { throw Problem(description: problem) }
        return r
    }
}
