/// Bytes JSON text is written into: an append is a capacity test and a copy of a known length,
/// where `[UInt8]`'s generic `append(contentsOf:)` costs about 25 ns a call, and a route answer
/// with steps makes thousands (every key, bracket and comma is one).
///
/// Not copyable, so it owns its bytes alone: no reference count, no uniqueness test per write.
public struct JSONBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// Bytes written so far (`count` outside).
    @usableFromInline var used = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Bytes written so far.
    public var count: Int { used }

    /// The bytes written so far (valid until the next write).
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: used) }

    /// Forgets the bytes written, keeping the storage.
    public mutating func removeAll() { used = 0 }

    @inlinable @inline(__always) public mutating func append(_ byte: UInt8) {
        if _slowPath(used == capacity) { grow(toHold: used + 1) }
        base[used] = byte
        used += 1
    }

    @inlinable @inline(__always) public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0 else { return }
        if _slowPath(used + n > capacity) { grow(toHold: used + n) }
        (base + used).update(from: bytes.baseAddress.unsafelyUnwrapped, count: n)
        used += n
    }

    @usableFromInline @inline(never) mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, 2 * capacity)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: base, count: used)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }
}

extension JSONBuffer: JSONByteOutput {}

extension JSONBuffer: JSONSink {
    @inlinable @inline(__always) public mutating func raw(_ text: StaticString) {
        append(bytes: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
    @inlinable public mutating func string(_ value: String) { JSONBytes.writeString(value, to: &self) }
    @inlinable public mutating func escaped(utf8 bytes: UnsafeBufferPointer<UInt8>) { JSONBytes.writeEscaped(bytes, to: &self) }
    @inlinable public mutating func double(_ value: Double) { JSONBytes.writeDouble(value, to: &self) }
    @inlinable public mutating func int(_ value: Int) { JSONBytes.writeInt(Int64(value), to: &self) }
}
