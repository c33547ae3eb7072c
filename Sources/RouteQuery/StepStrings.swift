/// The names and refs steps say, decoded once per string id. Decoding one from the file's bytes
/// (UTF-8 validation, and an allocation for names over 15 bytes) was ~180 instructions, two per
/// step, and a long route names the same roads again and again. Direct-mapped and owned by one
/// route service, like its search state: one per thread.
final class StepStrings {
    private static let slots = 512
    private let ids: UnsafeMutablePointer<UInt32>
    private let strings: UnsafeMutablePointer<String>

    init() {
        ids = .allocate(capacity: Self.slots)
        ids.initialize(repeating: UInt32.max, count: Self.slots)
        strings = .allocate(capacity: Self.slots)
        strings.initialize(repeating: "", count: Self.slots)
    }

    deinit {
        ids.deallocate()
        strings.deinitialize(count: Self.slots)
        strings.deallocate()
    }

    /// `data.string(id)`, from the cache when the id was the last one in its slot.
    func string(_ id: UInt32, in data: RoutingData) -> String {
        let slot = Int(id) & (Self.slots - 1)
        if ids[slot] == id { return strings[slot] }
        let decoded = data.string(id)
        ids[slot] = id
        strings[slot] = decoded
        return decoded
    }
}
