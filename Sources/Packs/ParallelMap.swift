import Dispatch

/// Runs independent per-item work (zlib compression, tile decompression) on all cores.
enum Parallel {
    /// `[transform(0), …, transform(count - 1)]`, computed concurrently. The result depends only
    /// on `transform`, never on scheduling, so outputs stay deterministic.
    static func map<T: Sendable>(count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let slots = DisjointSlots(base: buffer)
            DispatchQueue.concurrentPerform(iterations: count) { i in
                slots.initialize(i, to: transform(i))
            }
            initialized = count
        }
    }
}

/// A buffer whose slots are each initialized by exactly one iteration of `concurrentPerform`,
/// which is why sharing it across threads is safe.
private struct DisjointSlots<T>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<T>

    func initialize(_ i: Int, to value: T) {
        (base.baseAddress! + i).initialize(to: value)
    }
}
