/// The names and refs steps say, decoded once per string id. Decoding one from the file's bytes
/// (UTF-8 validation, and an allocation for names over 15 bytes) was ~180 instructions, two per
/// step, and a long route names the same roads again and again. Direct-mapped and owned by one
/// route service, like its search state: one per thread.
final class StepStrings {
    private static let slots = 512
    private let ids: UnsafeMutablePointer<UInt32>
    private let strings: UnsafeMutablePointer<String>
    /// Whether going from one (name, ref) to another needs a word (`nameChange`), by the four
    /// string ids: the turn analysis asks it of every pair of roads at a junction, and OSRM's
    /// suffix rule behind it compares the names' bytes (a longest common substring).
    private static let nameChangeSlots = 1024
    private let nameChangeKeys: UnsafeMutablePointer<SIMD4<UInt32>>
    private let nameChangeAnswers: UnsafeMutablePointer<Bool>

    init() {
        ids = .allocate(capacity: Self.slots)
        ids.initialize(repeating: UInt32.max, count: Self.slots)
        strings = .allocate(capacity: Self.slots)
        strings.initialize(repeating: "", count: Self.slots)
        nameChangeKeys = .allocate(capacity: Self.nameChangeSlots)
        nameChangeKeys.initialize(repeating: SIMD4(repeating: UInt32.max), count: Self.nameChangeSlots)
        nameChangeAnswers = .allocate(capacity: Self.nameChangeSlots)
        nameChangeAnswers.initialize(repeating: false, count: Self.nameChangeSlots)
    }

    deinit {
        ids.deallocate()
        strings.deinitialize(count: Self.slots)
        strings.deallocate()
        nameChangeKeys.deallocate()
        nameChangeAnswers.deallocate()
    }

    /// `compute()`'s answer for the string ids (from name, from ref, to name, to ref), from the
    /// cache when that key was the last one in its slot.
    func nameChange(_ key: SIMD4<UInt32>, _ compute: () -> Bool) -> Bool {
        let mixed = key &* SIMD4(0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F)
        let slot = Int((mixed[0] ^ mixed[1] ^ mixed[2] ^ mixed[3]) >> 22) & (Self.nameChangeSlots - 1)
        if nameChangeKeys[slot] == key { return nameChangeAnswers[slot] }
        let answer = compute()
        nameChangeKeys[slot] = key
        nameChangeAnswers[slot] = answer
        return answer
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
