#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a long library operation reports how far it got. Libraries only count; how progress is
/// shown (a bar on a terminal, NDJSON events, nothing) is the executable's choice
/// (ToolSupport's `ProgressReporter`).
///
/// Not thread-safe: call from one thread at a time.
public protocol ProgressSink: AnyObject {
    /// Records the counts so far; cheap enough to call once per item.
    func update(bytesDone: Int64, itemsDone: Int)
    /// Reports the final state, with `extra` fields for the `done` event. Later calls do nothing.
    func finish(extra: [String: JSONValue])
    /// Ends the report after a failure.
    func cancel()
}

extension ProgressSink {
    public func finish() { finish(extra: [:]) }
}

/// Makes a reporter for an operation that sizes its own work: a label ("install"), the total
/// bytes and items, and what the items are called ("packs").
public typealias ProgressFactory = (_ label: String, _ totalBytes: Int64, _ totalItems: Int, _ itemName: String)
    -> any ProgressSink

/// Reports nothing.
public final class SilentProgress: ProgressSink {
    public init() {}
    public static let factory: ProgressFactory = { _, _, _, _ in SilentProgress() }
    public func update(bytesDone: Int64, itemsDone: Int) {}
    public func finish(extra: [String: JSONValue]) {}
    public func cancel() {}
}

public enum MonotonicClock {
    /// `CLOCK_MONOTONIC` via the vDSO: tens of nanoseconds, cheap enough for every item.
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Seconds elapsed since `start` (a value of `nanoseconds()`).
    public static func seconds(since start: UInt64) -> Double {
        Double(nanoseconds() &- start) / 1e9
    }
}
