/// What `route-query bench` reports: in-process latencies on one graph.
public struct BenchmarkReport: Encodable, Sendable {
    /// Percentiles of latency samples (all absent when there were none).
    public struct Percentiles: Encodable, Sendable {
        public var p50: Double?
        public var p90: Double?
        public var p99: Double?
        public var max: Double?
        public var count: Int?
    }

    public var edgeBasedNodes: Int
    public var queries: Int
    public var graphBytes: Int
    /// Node-to-node CH distance queries, microseconds.
    public var distanceOnlyMicros = Percentiles()
    public var meanSettledNodes = 0
    public var snapMicros = Percentiles()
    public var durationBetweenPointsMicros = Percentiles()
    public var fullRouteWithStepsMicros = Percentiles()
    public var table100x100Millis = 0.0
    public var tableCode = ""
    public var table1000x1000Millis = 0.0
    /// CPU time of the 1,000 × 1,000 table, all threads (wall × cores on an idle machine).
    public var table1000x1000CPUMillis = 0.0
    public var table1000Code = ""
    public var peakRSSBytes = 0
    /// The bytes of the graph file mapped with 2 MiB pages at the end of the run (nil: unknown).
    public var graphHugePageBytes: Int?
    /// Set by the tool: opening the graph and answering one route, as a fresh process does.
    public var firstAnswerMillis: Double?
    public var firstAnswerCode: String?
    public var graph: String?

    init(edgeBasedNodes: Int, queries: Int, graphBytes: Int) {
        self.edgeBasedNodes = edgeBasedNodes
        self.queries = queries
        self.graphBytes = graphBytes
    }
}
