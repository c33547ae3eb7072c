import ArgumentParser
import Foundation
import OffgridCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a tool reports progress on stderr (`--progress auto|json|none`).
public enum ProgressMode: String, CaseIterable, ExpressibleByArgument {
    /// A redrawn one-line bar, only when stderr is a terminal; silent otherwise.
    case auto
    /// NDJSON events on stderr, for programs driving the tool.
    case json
    /// Nothing.
    case none
}

/// Reports the progress of one long operation, measured in bytes and in items (tiles, packs…).
///
/// `update` is meant to be called once per item: it only reads a monotonic clock and returns
/// unless enough time has passed since the last report (100 ms for the bar, 500 ms for JSON).
///
/// Not thread-safe: call `update`, `finish` and `cancel` from one thread at a time
/// (workers should funnel their counts through the thread that owns the reporter).
public final class ProgressReporter: ProgressSink {
    public let mode: ProgressMode
    public let label: String
    public let totalBytes: Int64
    public let totalItems: Int
    public let itemName: String

    /// Where lines go; stderr unless a test injects a sink.
    private let sink: (String) -> Void
    /// Nanoseconds from an arbitrary origin; injectable so tests can drive the throttle.
    private let clock: () -> UInt64
    /// Whether the bar is drawn at all (auto mode on a terminal).
    private let drawsBar: Bool

    private var bytesDone: Int64 = 0
    private var itemsDone = 0
    private var startTime: UInt64 = 0
    private var lastReportTime: UInt64 = 0
    private var hasReported = false
    private var isFinished = false

    private static let barInterval: UInt64 = 100_000_000
    private static let jsonInterval: UInt64 = 500_000_000

    /// - Parameters:
    ///   - isTerminal: overrides the `isatty(2)` test of auto mode (tests).
    ///   - sink: receives each chunk of output instead of stderr (tests).
    ///   - clock: monotonic nanoseconds instead of `CLOCK_MONOTONIC` (tests).
    public init(mode: ProgressMode, label: String, totalBytes: Int64, totalItems: Int,
                itemName: String = "tiles", isTerminal: Bool? = nil,
                sink: ((String) -> Void)? = nil, clock: (() -> UInt64)? = nil) {
        self.mode = mode
        self.label = label
        self.totalBytes = max(0, totalBytes)
        self.totalItems = max(0, totalItems)
        self.itemName = itemName
        self.sink = sink ?? { StdIO.err($0) }
        self.clock = clock ?? ProgressReporter.monotonicNanoseconds
        self.drawsBar = mode == .auto && (isTerminal ?? (isatty(2) == 1))
        self.startTime = self.clock()
    }

    /// A reporter that prints nothing, for library callers that do not want progress.
    public static func silent(totalBytes: Int64 = 0, totalItems: Int = 0) -> ProgressReporter {
        ProgressReporter(mode: .none, label: "", totalBytes: totalBytes, totalItems: totalItems)
    }

    /// Records the counts so far and prints them if the throttle allows.
    public func update(bytesDone: Int64, itemsDone: Int) {
        self.bytesDone = bytesDone
        self.itemsDone = itemsDone
        guard !isFinished, mode != .none, mode == .json || drawsBar else { return }
        let now = clock()
        let interval = mode == .json ? Self.jsonInterval : Self.barInterval
        if hasReported && now &- lastReportTime < interval { return }
        hasReported = true
        lastReportTime = now
        if mode == .json {
            sink("{\"event\":\"progress\"," + countFields() + "}\n")
        } else {
            drawBar(now: now)
        }
    }

    /// Prints the final state: the bar's last frame and a newline, or one `done` event whose
    /// counts are followed by `extra` (keys sorted). Later calls do nothing.
    public func finish(extra: [String: JSONValue] = [:]) {
        guard !isFinished else { return }
        isFinished = true
        switch mode {
        case .none:
            return
        case .json:
            var line = "{\"event\":\"done\"," + countFields()
            for key in extra.keys.sorted() {
                line += "," + JSONWriter.string(.string(key), pretty: false) + ":"
                    + JSONWriter.string(extra[key]!, pretty: false)
            }
            sink(line + "}\n")
        case .auto:
            guard drawsBar else { return }
            drawBar(now: clock())
            sink("\n")
        }
    }

    /// Ends the report after a failure: terminates the bar's line so an error message starts on
    /// a fresh line, and prints no `done` event.
    public func cancel() {
        guard !isFinished else { return }
        isFinished = true
        if drawsBar && hasReported { sink("\n") }
    }

    // MARK: - Formatting

    /// The count fields shared by `progress` and `done` events, in their documented order.
    private func countFields() -> String {
        let name = JSONWriter.string(.string(itemName), pretty: false)
        let nameDone = JSONWriter.string(.string(itemName + "Done"), pretty: false)
        let remaining = max(0, totalBytes - bytesDone)
        return "\"totalBytes\":\(totalBytes),\"bytesRemaining\":\(remaining),"
            + "\(name):\(totalItems),\(nameDone):\(itemsDone)"
    }

    private func drawBar(now: UInt64) {
        let fraction: Double
        if totalBytes > 0 {
            fraction = Double(bytesDone) / Double(totalBytes)
        } else if totalItems > 0 {
            fraction = Double(itemsDone) / Double(totalItems)
        } else {
            fraction = 1
        }
        let percent = min(100, max(0, Int((fraction * 100).rounded(.down))))
        let seconds = Double(now &- startTime) / 1e9
        var line = "\(label) \(percent)% "
        line += Self.humanBytes(bytesDone) + "/" + Self.humanBytes(totalBytes)
        line += " \(itemsDone)/\(totalItems) \(itemName)"
        if seconds > 0.05 {
            let itemRate = Double(itemsDone) / seconds
            let byteRate = Double(bytesDone) / seconds / 1e6
            line += " " + Self.oneDecimal(itemRate) + " \(itemName)/s " + Self.oneDecimal(byteRate) + " MB/s"
        }
        // Erase to the end of the line so a shorter frame leaves no tail of the previous one.
        sink("\r" + line + "\u{1B}[K")
    }

    /// Decimal units (kB, MB, GB) with one decimal, as file managers show sizes.
    public static func humanBytes(_ n: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(n)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(n) B" : oneDecimal(value) + " " + units[unit]
    }

    private static func oneDecimal(_ x: Double) -> String {
        guard x.isFinite else { return "0.0" }
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    public static func monotonicNanoseconds() -> UInt64 { MonotonicClock.nanoseconds() }

    /// Reporters in `mode` for library operations that size their own work.
    public static func factory(mode: ProgressMode) -> ProgressFactory {
        { label, bytes, items, itemName in
            ProgressReporter(mode: mode, label: label, totalBytes: bytes, totalItems: items, itemName: itemName)
        }
    }
}
