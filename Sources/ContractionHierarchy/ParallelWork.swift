import Dispatch
import Foundation

/// Runs `body` over `0 ..< count` cut into chunks, on up to `threads` workers.
///
/// Workers take chunks in order from a shared counter, so slow chunks do not hold others back.
/// `body` receives the worker number (to pick per-worker scratch state) and the chunk; the
/// caller writes results by index, which keeps them independent of scheduling.
enum ParallelWork {
    static func forEachChunk(count: Int, threads: Int, chunkSize: Int,
                             _ body: (_ worker: Int, _ range: Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunk = max(1, chunkSize)
        let chunkCount = (count + chunk - 1) / chunk
        let workers = min(threads, chunkCount)
        if workers <= 1 {
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
