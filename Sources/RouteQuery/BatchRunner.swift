import Foundation
import OffgridCore

/// Runs NDJSON route queries on every core; answers come out in input order.
/// Lines are parsed with the exact JSON reader and answered with typed `BatchAnswer`s.
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

    /// Reads query lines from `input` and writes one line per query to `output`, made by
    /// `render` (called on the worker threads, so rendering runs in parallel too).
    public func run(input: FileHandle, output: FileHandle, render: (BatchAnswer) -> String) throws -> Report {
        var report = Report()
        let started = MonotonicClock.nanoseconds()
        let services = try (0..<threads).map { _ in try RouteService(data: data) }
        var pending = Data()
        let chunkLines = 512
        func flush(_ lines: [Substring]) {
            var answers = [String](repeating: "", count: lines.count)
            var latencies = [Double](repeating: 0, count: lines.count)
            answers.withUnsafeMutableBufferPointer { a in
                latencies.withUnsafeMutableBufferPointer { lat in
                    Parallel.forEachChunk(count: lines.count, threads: threads, chunkSize: 16) { worker, range in
                        for i in range {
                            let t0 = MonotonicClock.nanoseconds()
                            a[i] = render(answer(services[worker], lines[i]))
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

    /// One query line → one answer.
    func answer(_ service: RouteService, _ line: Substring) -> BatchAnswer {
        if let plain = BatchLineScanner.scan(line) { return answer(service, plain) }
        guard let q = try? JSONReader.parse(String(line)), q.objectValue != nil else {
            return BatchAnswer(id: .null, code: "InvalidInput", message: "not a JSON object")
        }
        let id = q["id"] ?? .null
        do {
            let request = try BatchQuery.request(q, defaults: defaults)
            if full || BatchQuery.flag(q["full"]) == true || BatchQuery.flag(q["steps"]) == true {
                var response = try service.routes(request)
                response.code = nil
                let first = response.routes[0]
                return BatchAnswer(id: id, code: "Ok", distanceMeters: first.distance, durationSeconds: first.duration, route: response)
            }
            if durationOnly {
                return BatchAnswer(id: id, code: "Ok", durationSeconds: round1(try service.duration(request)))
            }
            let s = try service.summary(request)
            return BatchAnswer(id: id, code: "Ok", distanceMeters: round1(s.distance), durationSeconds: round1(s.duration))
        } catch let f as QueryFailure {
            return BatchAnswer(id: id, code: f.code, message: f.message)
        } catch {
            return BatchAnswer(id: id, code: "InvalidInput", message: "\(error)")
        }
    }

    /// A line of the common shape (no per-line options): the defaults with its two points.
    func answer(_ service: RouteService, _ line: BatchLineScanner.Line) -> BatchAnswer {
        var request = defaults
        request.coordinates = [line.from, line.to]
        if let problem = request.validationProblem() { return BatchAnswer(id: line.id, code: "InvalidInput", message: problem) }
        do {
            if full {
                var response = try service.routes(request)
                response.code = nil
                let first = response.routes[0]
                return BatchAnswer(id: line.id, code: "Ok", distanceMeters: first.distance, durationSeconds: first.duration, route: response)
            }
            if durationOnly {
                return BatchAnswer(id: line.id, code: "Ok", durationSeconds: round1(try service.duration(request)))
            }
            let s = try service.summary(request)
            return BatchAnswer(id: line.id, code: "Ok", distanceMeters: round1(s.distance), durationSeconds: round1(s.duration))
        } catch let f as QueryFailure {
            return BatchAnswer(id: line.id, code: f.code, message: f.message)
        } catch {
            return BatchAnswer(id: line.id, code: "InvalidInput", message: "\(error)")
        }
    }
}
