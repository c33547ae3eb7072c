/// Scratch elements in one buffer that grows by doubling and is kept for reuse: stores and
/// appends without an array's capacity and uniqueness checks, for the inner loops of path
/// unpacking and arc sums. For trivial element types: nothing is deinitialized. Noncopyable,
/// so exactly one value owns the memory and frees it when it goes: a copy that was dropped once
/// lost 20 KB per unpacked path (1328dbe); read elsewhere through `elements`.
struct ScratchBuffer<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// The elements, for reading where the buffer itself cannot go (a closure): valid until the
    /// next `reserve` or `append`.
    var elements: UnsafePointer<Element> { UnsafePointer(base) }

    subscript(i: Int) -> Element {
        @inline(__always) get { base[i] }
        @inline(__always) nonmutating set { base[i] = newValue }
    }

    mutating func removeAll() { count = 0 }

    /// Room for `total` elements in all.
    mutating func reserve(_ total: Int) {
        guard total > capacity else { return }
        let larger = max(total, 2 * capacity)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        (base, capacity) = (grown, larger)
    }

    @inline(__always) mutating func append(_ element: Element) {
        reserve(count + 1)
        (base + count).initialize(to: element)
        count += 1
    }

    deinit { base.deallocate() }
}
