/// A sparse array's index: which of `slots` slots hold a value, and where each value lies among
/// the values of flagged slots, which are stored apart in slot order. One word per 32 slots: the
/// high half flags slots (bit `i`: slot `32 × word + i`), the low half counts the flagged slots of
/// all earlier words. A lookup is one word and a popcount. For arrays whose slots mostly hold
/// nothing: shortcut middles (`CHShortcutMiddles`: real turns have none) and the components of
/// ranks outside a road graph's main one (`RankComponents`).
public enum FlagWords {
    public static let slotsPerWord = 32

    public static func count(slots: Int) -> Int { (slots + slotsPerWord - 1) / slotsPerWord }

    @inline(__always) public static func isFlagged(_ words: UnsafeBufferPointer<UInt64>, _ slot: Int) -> Bool {
        words[slot >> 5] >> UInt64(32 + (slot & 31)) & 1 != 0
    }

    /// How many slots before `slot` are flagged: the position of `slot`'s value when it has one.
    @inline(__always) public static func flagged(_ words: UnsafeBufferPointer<UInt64>, before slot: Int) -> Int {
        let word = words[slot >> 5]
        let flags = UInt32(truncatingIfNeeded: word >> 32), below = (UInt32(1) << UInt32(slot & 31)) &- 1
        return Int(UInt32(truncatingIfNeeded: word)) + (flags & below).nonzeroBitCount
    }

    /// The words flagging the slots of `0 ..< slots` for which `isFlagged` holds.
    public static func words(slots: Int, flagging isFlagged: (Int) -> Bool) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: count(slots: slots))
        var flagged = 0
        for slot in 0..<slots {
            if slot & 31 == 0 { words[slot >> 5] = UInt64(flagged) }
            guard isFlagged(slot) else { continue }
            words[slot >> 5] |= UInt64(1) << UInt64(32 + (slot & 31))
            flagged += 1
        }
        return words
    }

    /// The words of an array in which `absent` marks a slot without a value, and the values of
    /// the others in slot order.
    public static func compact<T: Equatable>(_ values: [T], absent: T) -> (words: [UInt64], values: [T]) {
        (words(slots: values.count) { values[$0] != absent }, values.filter { $0 != absent })
    }

    /// The first inconsistency of `words` over `slots` slots with `values` stored values, or nil:
    /// every word must count the flags before it, flags past the last slot are clear, and there is
    /// one value per flag. `names` say what a slot, the flagged slots and the values are in the
    /// message (`("arc", "shortcuts", "middles")`).
    public static func problem(_ words: UnsafeBufferPointer<UInt64>, slots: Int, values: Int,
                               names: (slot: String, flagged: String, values: String)) -> String? {
        var flagged = 0
        for (w, word) in words.enumerated() {
            if Int(UInt32(truncatingIfNeeded: word)) != flagged {
                return "word \(w) counts \(UInt32(truncatingIfNeeded: word)) \(names.flagged) before it, not \(flagged)"
            }
            let flags = UInt32(truncatingIfNeeded: word >> 32)
            let slotsHere = min(slotsPerWord, slots - w * slotsPerWord)
            if slotsHere < slotsPerWord && flags >> UInt32(slotsHere) != 0 {
                return "word \(w) flags \(names.flagged) past the last \(names.slot)"
            }
            flagged += flags.nonzeroBitCount
        }
        return flagged == values ? nil : "\(flagged) \(names.flagged) are flagged but \(values) \(names.values) stored"
    }
}
