#if canImport(Glibc)
import Glibc
#endif
import Foundation   // the --stats text only (String(format:)); the line loop uses none of it
import OffgridCore

/// Runs NDJSON route queries on every core; answers come out in input order.
///
/// The loop works on bytes: input is read with `read(2)` into one reused buffer and cut at
/// newlines, lines of the common shape are scanned in place (`BatchLineScanner`), and each
/// chunk of lines is answered into its own reused byte buffer, which the calling thread then
/// writes out in order with `write(2)`. Workers take chunks from a shared counter and touch
/// only their chunk's buffer: no lock and no allocation per line on the common path. Other
/// lines take the exact reader, whose error messages they get.
public struct BatchRunner {
    let data: RoutingData
    let defaults: RouteRequest
    let full: Bool
    let durationOnly: Bool
    let threads: Int
    /// What every line avoids (`--exclude`, `--avoid`), and the metrics lines with their own
    /// `exclude` add to it (made once per exclusion set, shared by the workers).
    public var avoidance = Avoidance()
    public var metrics: AvoidanceMetrics

    /// Lines answered between two writes, and lines per unit of work handed to a worker (tests
    /// make them small to cross their boundaries with few lines).
    var groupLines = 8192
    var chunkLines = 32
    /// Bytes of answers a group may hold before they are written: groups shrink to fit when
    /// answers are large (a full route with steps is tens of kB), so memory stays bounded
    /// (8,192 such answers were hundreds of MB) and the chunk buffers, reused from group to
    /// group, stop faulting in fresh pages. A group keeps four chunks per thread at least.
    var groupBytes = 16 << 20

    /// `durationOnly`: answer with the travel time alone (a CH distance query, no path unpacking).
    public init(data: RoutingData, defaults: RouteRequest, full: Bool, durationOnly: Bool = false, threads: Int) {
        self.data = data
        self.defaults = defaults
        self.full = full
        self.durationOnly = durationOnly
        self.threads = max(1, threads)
        metrics = AvoidanceMetrics(data: data)
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

    /// Reading the queries or writing the answers failed (a closed pipe, a full disk).
    public struct IOFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads query lines from file descriptor `input` until its end and writes one answer line
    /// per query line to `output`, in input order. Blank lines (spaces, tabs, CR only) are skipped.
    public func run(input: Int32, output: Int32) throws -> Report {
        var report = Report()
        let started = MonotonicClock.nanoseconds()
        let workers = try (0..<threads).map { _ in try Worker(runner: self) }
        let groupLines = max(1, groupLines), chunkLines = max(1, chunkLines)
        let chunkCount = (groupLines + chunkLines - 1) / chunkLines
        let outputs = UnsafeMutableBufferPointer<JSONBuffer>.allocate(capacity: chunkCount)
        for c in 0..<chunkCount { (outputs.baseAddress! + c).initialize(to: JSONBuffer()) }
        let latencies = UnsafeMutableBufferPointer<Double>.allocate(capacity: groupLines)
        let lines = UnsafeMutableBufferPointer<Range<Int>>.allocate(capacity: groupLines)
        defer {
            outputs.deinitialize().deallocate()
            latencies.deallocate()
            lines.deallocate()
        }
        // Lines per group: a small first group, then as many as `groupBytes` holds at the
        // answer size seen so far. Group boundaries do not change the output.
        let smallestGroup = min(groupLines, 4 * threads * chunkLines)
        var groupTarget = smallestGroup
        var buffer: [UInt8] = []
        var scanned = 0       // bytes of `buffer` already cut into lines
        var lineCount = 0
        var atEnd = false

        /// Answers `lines[0 ..< lineCount]` (ranges into `bytes`) and writes the answers.
        func flush(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            let count = lineCount
            guard count > 0 else { return }
            Parallel.forEachChunk(count: count, threads: threads, chunkSize: chunkLines) { w, range in
                let worker = workers[w]
                let c = range.lowerBound / chunkLines
                outputs[c].removeAll()
                for i in range {
                    let t0 = MonotonicClock.nanoseconds()
                    worker.answer(UnsafeBufferPointer(rebasing: bytes[lines[i]]), into: &outputs[c])
                    outputs[c].append(0x0A)
                    latencies[i] = Double(MonotonicClock.nanoseconds() - t0) / 1000
                }
            }
            // Answers after a damaged block of the graph may be wrong: none of this group is written.
            try data.throwIfDamaged()
            var written = 0
            for c in 0..<(count + chunkLines - 1) / chunkLines {
                try writeAll(outputs[c].bytes, to: output)
                written += outputs[c].count
            }
            groupTarget = min(groupLines, max(smallestGroup, groupBytes / max(1, written / count)))
            report.queries += count
            report.latenciesMicros += UnsafeBufferPointer(rebasing: latencies[0..<count])
            lineCount = 0
        }

        while !atEnd {
            // Keep the unfinished last line, then read more after it.
            if scanned > 0 {
                buffer.removeSubrange(0..<scanned)
                scanned = 0
            }
            let old = buffer.count, want = 1 << 20
            buffer.append(contentsOf: repeatElement(0, count: want))
            let got = try buffer.withUnsafeMutableBufferPointer { b in try readSome(input, b.baseAddress! + old, want) }
            buffer.removeLast(want - got)
            atEnd = got == 0
            // Cut the complete lines (and, at the end of input, the last one); answer a group at a time.
            try buffer.withUnsafeBufferPointer { b in
                let end = b.count
                while scanned < end {
                    let lineEnd: Int
                    if let p = memchr(b.baseAddress! + scanned, 0x0A, end - scanned) {
                        lineEnd = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
                    } else if atEnd {
                        lineEnd = end
                    } else {
                        break
                    }
                    if !b[scanned..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                        lines[lineCount] = scanned..<lineEnd
                        lineCount += 1
                        if lineCount >= groupTarget { try flush(b) }
                    }
                    scanned = min(end, lineEnd + 1)
                }
                try flush(b)
            }
        }
        report.seconds = Double(MonotonicClock.nanoseconds() - started) / 1e9
        return report
    }

    /// One thread's search state and scratch request.
    final class Worker {
        let runner: BatchRunner
        let service: RouteService
        /// The defaults with two coordinates, reused for every plain line.
        var request: RouteRequest

        /// Services for lines with their own `exclude`, by what they avoid (as many as the metrics kept).
        var services: [(key: Avoidance, service: RouteService)] = []

        init(runner: BatchRunner) throws {
            self.runner = runner
            service = try RouteService(data: runner.data, avoiding: try runner.metrics.metric(for: runner.avoidance))
            request = runner.defaults
            request.coordinates = [(0, 0), (0, 0)]
        }

        func service(avoiding extra: Avoidance) throws -> RouteService {
            let key = runner.avoidance.adding(extra)
            if let hit = services.first(where: { $0.key == key }) { return hit.service }
            let made = try RouteService(data: runner.data, avoiding: try runner.metrics.metric(for: key))
            services.append((key, made))
            while services.count > runner.metrics.keptLimit { services.removeFirst() }
            return made
        }

        /// Answers one line (its bytes, without the newline) into `out`.
        func answer(_ line: UnsafeBufferPointer<UInt8>, into out: inout JSONBuffer) {
            if let plain = BatchLineScanner.scan(line) {
                request.coordinates[0] = plain.from
                request.coordinates[1] = plain.to
                runner.answer(service, plain, request: request).writeJSON(to: &out)
            } else {
                let text = String(decoding: line, as: UTF8.self)
                runner.answer(service, Substring(text), avoiding: self.service(avoiding:)).writeJSON(to: &out)
            }
        }
    }

    /// One query line → one answer. A line's `exclude` (as `--exclude`) is answered by the
    /// service `avoiding` gives for it.
    func answer(_ service: RouteService, _ line: Substring, avoiding: ((Avoidance) throws -> RouteService)? = nil) -> BatchAnswer {
        if let plain = BatchLineScanner.scan(line) { return answer(service, plain) }
        guard let q = try? JSONReader.parse(String(line)), q.objectValue != nil else {
            return BatchAnswer(id: .null, code: "InvalidInput", message: "not a JSON object")
        }
        let id = q["id"] ?? .null
        var service = service
        if let exclude = q["exclude"] {
            guard let text = exclude.stringValue else {
                return BatchAnswer(id: id, code: "InvalidValue", message: "\"exclude\" must be a string such as \"motorway,toll\"")
            }
            do {
                let extra = try Avoidance.parseExclude(text)
                if let avoiding { service = try avoiding(extra) }
            } catch let e as AvoidanceError {
                return BatchAnswer(id: id, code: "InvalidValue", message: e.description)
            } catch {
                return BatchAnswer(id: id, code: "InvalidInput", message: "\(error)")
            }
        }
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
        return answer(service, line, request: request)
    }

    /// The same, with `request` already holding the line's two points.
    func answer(_ service: RouteService, _ line: BatchLineScanner.Line, request: RouteRequest) -> BatchAnswer {
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

/// What one `read(2)` of up to `count` bytes gives (0 at the end of input), retrying interrupted reads.
private func readSome(_ fd: Int32, _ into: UnsafeMutablePointer<UInt8>, _ count: Int) throws -> Int {
    while true {
        let n = read(fd, into, count)
        if n >= 0 { return n }
        if errno != EINTR { throw BatchRunner.IOFailure(description: "cannot read the queries from stdin: \(String(cString: strerror(errno)))") }
    }
}

/// All of `bytes` to `fd`.
private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) throws {
    guard FileTools.writeAll(fd, UnsafeRawBufferPointer(bytes)) else {
        throw BatchRunner.IOFailure(description: "cannot write the answers to stdout: \(FileTools.reason())")
    }
}
