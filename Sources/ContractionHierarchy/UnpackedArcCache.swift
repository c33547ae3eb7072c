#if canImport(Glibc)
import Glibc
#endif

/// The original arcs that long shortcuts of up-down paths stand for, kept after unpacking so
/// that the next path using the same shortcut copies them instead of unpacking it again.
///
/// The shortcuts near the top of the hierarchy are on most paths, and unpacking one is hundreds
/// of halves found at random places, a few cache misses each: at ~5 M nodes, about half the
/// ranks of a random path came from an up-down arc some earlier path had already unpacked
/// (measured on 1,200 random routes). A shortcut `from → to` via `middle` always unpacks to the
/// same arcs (`CHGraphView.halves` takes the first matching halves), so those three ranks are
/// the key, and a copy can never differ from an unpacking.
///
/// Bounded: runs go into a ring of 2^19 (rank, weight) pairs (4 MiB, allocated on first use and
/// touched only as filled; 2^20 answered no faster); a run whose place in the ring has been
/// written over since is gone, as is one whose slot another key took (direct-mapped, 2^15
/// slots of 24 bytes). One per query object, so per thread: written without locks.
final class UnpackedArcCache {
    /// Runs shorter than this are unpacked each time: a lookup and a copy would save little.
    static let minimumRun = 16

    private struct Slot {
        var from: UInt32, to: UInt32, middle: UInt32
        var count: UInt32   // 0: empty
        var position: UInt64   // where the run starts, counted over all pairs ever written
    }

    typealias Run = UnsafeBufferPointer<(to: UInt32, weight: UInt32)>

    private let slotBits: Int
    private let capacity: Int
    private var slots: UnsafeMutablePointer<Slot>?
    private var ring: UnsafeMutablePointer<(to: UInt32, weight: UInt32)>?
    /// Pairs ever written (and skipped at the ring's end): the next run starts here.
    private var written: UInt64 = 0
    /// Runs found (for measurements).
    private(set) var hits = 0

    init(slotBits: Int = 15, capacity: Int = 1 << 19) {
        precondition((1...24).contains(slotBits) && capacity >= Self.minimumRun, "a cache with room for runs")
        self.slotBits = slotBits
        self.capacity = capacity
    }

    deinit {
        free(slots)
        free(ring)
    }

    @inline(__always) private func slotIndex(_ from: UInt32, _ to: UInt32, _ middle: UInt32) -> Int {
        let h = UInt64(from) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(to) &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(middle) &* 0x1656_67B1_9E37_79F9
        return Int(truncatingIfNeeded: h >> UInt64(64 - slotBits))
    }

    /// The run kept for the shortcut `from → to` via `middle`, in travel order: each original
    /// arc's head and weight, the last head `to`. Valid until the next `remember`.
    func run(from: UInt32, to: UInt32, middle: UInt32) -> Run? {
        guard let slots, let ring else { return nil }
        let slot = slots[slotIndex(from, to, middle)]
        guard slot.count > 0, slot.from == from, slot.to == to, slot.middle == middle,
              written - slot.position <= UInt64(capacity) else { return nil }
        hits += 1
        return Run(start: ring + Int(slot.position % UInt64(capacity)), count: Int(slot.count))
    }

    /// Keeps the run of the shortcut `from → to` via `middle`: `nodes[i]` and `weights[i]` are
    /// the head and weight of its i-th original arc.
    func remember(from: UInt32, to: UInt32, middle: UInt32, nodes: UnsafeBufferPointer<UInt32>, weights: UnsafeBufferPointer<UInt32>) {
        let count = nodes.count
        guard count >= Self.minimumRun, count <= capacity / 4, weights.count == count else { return }
        if slots == nil {
            // calloc: zeroed pages are empty slots, and cost nothing until used.
            slots = calloc(1 << slotBits, MemoryLayout<Slot>.stride)?.bindMemory(to: Slot.self, capacity: 1 << slotBits)
            ring = malloc(capacity * MemoryLayout<(to: UInt32, weight: UInt32)>.stride)?
                .bindMemory(to: (to: UInt32, weight: UInt32).self, capacity: capacity)
        }
        guard let slots, let ring else { return }
        // A run never wraps around the ring's end: the pairs left there are skipped.
        var start = Int(written % UInt64(capacity))
        if start + count > capacity {
            written += UInt64(capacity - start)
            start = 0
        }
        for i in 0..<count { ring[start + i] = (nodes[i], weights[i]) }
        slots[slotIndex(from, to, middle)] = Slot(from: from, to: to, middle: middle, count: UInt32(count), position: written)
        written += UInt64(count)
    }
}

extension UnpackedArcCache {
    /// The middle an up-down arc is given in `CHQuery.unpack` while its run comes from the
    /// cache: no rank (ranks stay below 2^30), nor a real arc's `UInt32.max`.
    static let marker = UInt32.max - 1
}
