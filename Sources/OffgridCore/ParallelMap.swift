import Dispatch
import Foundation

/// The one way the project spreads independent work over cores. Results are written by index,
/// never in completion order, so outputs do not depend on scheduling.
public enum Parallel {
    /// Runs `body` over `0 ..< count` cut into chunks of `chunkSize`, on up to `threads` workers.
    ///
    /// Workers take chunks in order from a shared counter, so slow chunks do not hold others back.
    /// `body` receives the worker number (to pick per-worker scratch state) and the chunk.
    public static func forEachChunk(count: Int, threads: Int, chunkSize: Int = 1,
                                    _ body: (_ worker: Int, _ range: Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunk = max(1, chunkSize)
        let chunkCount = (count + chunk - 1) / chunk
        let workers = min(max(1, threads), chunkCount)
        if workers == 1 {
            body(0, 0..<count)
            return
        }
        let counter = ChunkCounter()
        withoutActuallyEscaping(body) { body in
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                while true {
                    let c = counter.next()
                    if c >= chunkCount { return }
                    body(worker, c * chunk ..< min(count, (c + 1) * chunk))
                }
            }
        }
    }

    /// `[transform(0), …, transform(count - 1)]`, computed on all cores.
    public static func map<T>(count: Int, threads: Int = activeProcessorCount, _ transform: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = DisjointSlots(base: buffer)
            forEachChunk(count: count, threads: threads) { _, range in
                for i in range { slots.initialize(i, to: transform(i)) }
            }
            initialized = count
        }
    }

    /// Like `map`, but the first error thrown (lowest index) is rethrown after all work stops.
    public static func map<T>(count: Int, threads: Int = activeProcessorCount,
                              throwing transform: (Int) throws -> T) throws -> [T] {
        let results: [Result<T, Error>] = map(count: count, threads: threads) { i in Result { try transform(i) } }
        return try results.map { try $0.get() }
    }

    /// Runs `body(worker, i)` for every `i` in `0 ..< count` on up to `threads` workers. After the
    /// first error no new item starts; that error is rethrown once every worker has stopped.
    public static func forEach(count: Int, threads: Int,
                               _ body: (_ worker: Int, _ index: Int) throws -> Void) throws {
        let failure = FirstFailure()
        forEachChunk(count: count, threads: threads) { worker, range in
            for i in range {
                if failure.error != nil { return }
                do { try body(worker, i) } catch { failure.record(error); return }
            }
        }
        if let error = failure.error { throw error }
    }

    public static var activeProcessorCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}

/// The first error any worker met.
private final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Error?

    var error: Error? {
        lock.lock()
        defer { lock.unlock() }
        return first
    }

    func record(_ error: Error) {
        lock.lock()
        if first == nil { first = error }
        lock.unlock()
    }
}

/// A lock-protected counter handing out chunk numbers (a chunk is coarse, so the lock is cheap).
private final class ChunkCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}

/// A buffer whose slots are each initialized by exactly one worker, which is why sharing it
/// across threads is safe.
private struct DisjointSlots<T>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<T>

    func initialize(_ i: Int, to value: T) {
        (base.baseAddress! + i).initialize(to: value)
    }
}
