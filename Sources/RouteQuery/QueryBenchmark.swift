#if canImport(Glibc)
import Glibc
#endif
import ContractionHierarchy
import OffgridCore

/// In-process latency figures for `route-query bench`: the same code paths as the commands,
/// timed per query without JSON parsing or process start-up in the way.
public struct QueryBenchmark {
    let data: RoutingData
    let queries: Int
    var rng: BenchmarkRandom

    public init(data: RoutingData, queries: Int, seed: UInt64) {
        self.data = data
        self.queries = queries
        rng = BenchmarkRandom(state: seed)
    }

    /// Percentiles of microsecond samples.
    static func percentiles(_ samples: [Double]) -> BenchmarkReport.Percentiles {
        let s = samples.sorted()
        guard !s.isEmpty else { return BenchmarkReport.Percentiles() }
        func p(_ q: Double) -> Double { (s[min(s.count - 1, Int(Double(s.count) * q))] * 10).rounded() / 10 }
        return BenchmarkReport.Percentiles(p50: p(0.5), p90: p(0.9), p99: p(0.99), max: p(1), count: s.count)
    }

    @inline(__always) static func now() -> UInt64 { MonotonicClock.nanoseconds() }

    /// CPU time of the whole process (all threads): on a loaded machine, what a parallel phase
    /// costs when wall time mostly measures waiting for a core.
    static func processCPUNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// A point on a random main-network road: the middle of a random segment of its edge.
    mutating func randomRoadPoint() -> (lon: Double, lat: Double) {
        while true {
            let r = Int(rng.next() % UInt64(data.rankCount))
            guard data.rankComponent[r] == 0 else { continue }
            let e = Int(data.rankEdgeDirection[r] >> 1)
            let k = Int(rng.next() % UInt64(data.shapes.count(e) - 1))
            let a = data.shapes.point(e, k), b = data.shapes.point(e, k + 1)
            return ((Double(a.lonE7) + Double(b.lonE7)) / 2e7, (Double(a.latE7) + Double(b.latE7)) / 2e7)
        }
    }

    mutating func randomMainRank() -> UInt32 {
        while true {
            let r = UInt32(rng.next() % UInt64(data.rankCount))
            if data.rankComponent[Int(r)] == 0 { return r }
        }
    }

    public mutating func run() throws -> BenchmarkReport {
        var out = BenchmarkReport(edgeBasedNodes: data.rankCount, queries: queries, graphBytes: data.file.fileSize)
        // Distance-only: node-to-node CH queries, as routing libraries measure them. One untimed
        // pass first, as the references' benchmarks warm up: the search labels are fresh
        // anonymous memory, and their first touches (page faults) would be timed otherwise.
        let ch = CHQuery(graph: data.ch)
        let nodePairs = (0..<queries).map { _ in (randomMainRank(), randomMainRank()) }
        for (s, t) in nodePairs { _ = ch.distance(from: s, to: t) }
        var samples: [Double] = []
        samples.reserveCapacity(queries)
        var settled = 0
        for (s, t) in nodePairs {
            let t0 = Self.now()
            _ = ch.distance(from: s, to: t)
            samples.append(Double(Self.now() - t0) / 1000)
            settled += ch.lastSettledCount
        }
        out.distanceOnlyMicros = Self.percentiles(samples)
        out.meanSettledNodes = settled / max(1, queries)

        // Between coordinates: snapping, a travel time, and the full route with steps and geometry.
        let service = try RouteService(data: data)
        let pairs = (0..<queries).map { _ in (randomRoadPoint(), randomRoadPoint()) }
        samples.removeAll(keepingCapacity: true)
        for (a, _) in pairs {
            let t0 = Self.now()
            _ = service.snap(lon: a.lon, lat: a.lat, radius: nil, bearing: nil)
            samples.append(Double(Self.now() - t0) / 1000)
        }
        out.snapMicros = Self.percentiles(samples)
        samples.removeAll(keepingCapacity: true)
        for (a, b) in pairs {
            let t0 = Self.now()
            _ = try? service.duration(RouteRequest(coordinates: [a, b]))
            samples.append(Double(Self.now() - t0) / 1000)
        }
        out.durationBetweenPointsMicros = Self.percentiles(samples)
        samples.removeAll(keepingCapacity: true)
        var request = RouteRequest(coordinates: [])
        request.steps = true
        request.overview = .full
        for (a, b) in pairs.prefix(max(1, queries / 5)) {
            request.coordinates = [a, b]
            let t0 = Self.now()
            _ = service.route(request)
            samples.append(Double(Self.now() - t0) / 1000)
        }
        out.fullRouteWithStepsMicros = Self.percentiles(samples)

        // Tables: 100 × 100, and 1,000 × 1,000 (the goal: < 1 s at ~1 M nodes).
        let table = try TableService(data: data)
        for size in [100, 1000] {
            let sources = (0..<size).map { _ in randomRoadPoint() }, destinations = (0..<size).map { _ in randomRoadPoint() }
            let t0 = Self.now(), cpu0 = Self.processCPUNanoseconds()
            let code: String
            do { code = try table.table(sources: sources, destinations: destinations).code } catch { code = error.code }
            let millis = (Double(Self.now() - t0) / 1e5).rounded() / 10
            if size == 100 { out.table100x100Millis = millis; out.tableCode = code } else {
                out.table1000x1000Millis = millis
                out.table1000x1000CPUMillis = (Double(Self.processCPUNanoseconds() - cpu0) / 1e5).rounded() / 10
                out.table1000Code = code
            }
        }
        out.peakRSSBytes = PeakMemory.bytes()
        out.graphHugePageBytes = data.file.hugePageBytes
        return out
    }
}

/// SplitMix64, for reproducible benchmark queries.
struct BenchmarkRandom {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension QueryBenchmark {
    /// One route with steps between two road points, as the first query of a fresh process.
    public mutating func firstAnswer(_ service: RouteService) -> String {
        var request = RouteRequest(coordinates: [randomRoadPoint(), randomRoadPoint()])
        request.steps = true
        return service.route(request).response?.code ?? "?"
    }
}
