import OSMPBF
import RoutingProfile

/// The kept tags of one block's objects, with their own small string table: built on a decoding
/// thread, numbered globally by `TagSetInterner` when the blocks are merged in file order.
struct BlockTagSets {
    /// Strings of this block that kept tags use.
    var strings: [String] = []
    /// Object i's pairs are `keys/values[first[i] ..< first[i + 1]]`, indexes into `strings`.
    var first: [Int] = [0]
    var keys: [UInt32] = []
    var values: [UInt32] = []
    /// Block string index → index in `strings` + 1 (0: not yet used).
    private var local: [UInt32] = []

    var objectCount: Int { first.count - 1 }

    private mutating func localString(_ block: PrimitiveBlock, _ i: Int) -> UInt32 {
        if local.isEmpty { local = [UInt32](repeating: 0, count: block.stringCount) }
        if local[i] == 0 {
            strings.append(block.string(i).string)
            local[i] = UInt32(strings.count)
        }
        return local[i] - 1
    }

    /// Adds an object with the tags whose key `keeps` accepts; `verdicts` caches the answer per
    /// block string (0 not asked, 1 kept, 2 not).
    mutating func add(_ block: PrimitiveBlock, _ tags: Tags, verdicts: inout [UInt8], keeps: (String) -> Bool) {
        for i in 0..<tags.count {
            let k = tags.key(i)
            if verdicts[k] == 0 { verdicts[k] = keeps(block.string(k).string) ? 1 : 2 }
            guard verdicts[k] == 1 else { continue }
            keys.append(localString(block, k))
            values.append(localString(block, tags.value(i)))
        }
        first.append(keys.count)
    }

    /// Adds a node's kept tags as an object when they make it end edges; false (nothing added) otherwise.
    mutating func addIfEndsEdges(_ block: PrimitiveBlock, _ tags: Tags, verdicts: inout [UInt8]) -> Bool {
        var kept: [String: String] = [:]
        for i in 0..<tags.count {
            let k = tags.key(i)
            if verdicts[k] == 0 { verdicts[k] = RoutingTagSchema.keepsNodeKey(block.string(k).string) ? 1 : 2 }
            if verdicts[k] == 1 { kept[block.string(k).string] = block.string(tags.value(i)).string }
        }
        guard !kept.isEmpty, RoutingTagSchema.endsEdges(nodeTags: kept) else { return false }
        add(block, tags, verdicts: &verdicts, keeps: RoutingTagSchema.keepsNodeKey)
        return true
    }
}

/// Numbers strings and tag sets across the whole network, in the order the merge meets them:
/// a set is its (key, value) pairs sorted by the key's text, set 0 the empty one.
struct TagSetInterner {
    private(set) var strings: [String] = [""]
    private var stringIndex: [String: UInt32] = ["": 0]
    private(set) var setFirst: [UInt32] = [0, 0]
    private(set) var keys: [UInt32] = []
    private(set) var values: [UInt32] = []
    private var setIndex: [[UInt32]: UInt32] = [[]: 0]
    private var pairs: [(UInt32, UInt32)] = []

    mutating func intern(string s: String) -> UInt32 {
        if let i = stringIndex[s] { return i }
        let i = UInt32(strings.count)
        strings.append(s)
        stringIndex[s] = i
        return i
    }

    /// The global set of `sets`' object `object`, whose strings are `globalStrings` here.
    mutating func intern(_ sets: BlockTagSets, object: Int, strings globalStrings: [UInt32]) -> UInt32 {
        let r = sets.first[object]..<sets.first[object + 1]
        if r.isEmpty { return 0 }
        pairs.removeAll(keepingCapacity: true)
        for k in r { pairs.append((globalStrings[Int(sets.keys[k])], globalStrings[Int(sets.values[k])])) }
        let text = strings
        pairs.sort { text[Int($0.0)] < text[Int($1.0)] }
        // A key given twice (no valid OSM object has it) keeps its first value.
        var flat: [UInt32] = []
        flat.reserveCapacity(2 * pairs.count)
        for (i, p) in pairs.enumerated() where i == 0 || pairs[i - 1].0 != p.0 { flat.append(p.0); flat.append(p.1) }
        if let i = setIndex[flat] { return i }
        let i = UInt32(setFirst.count - 1)
        for k in stride(from: 0, to: flat.count, by: 2) { keys.append(flat[k]); values.append(flat[k + 1]) }
        setFirst.append(UInt32(keys.count))
        setIndex[flat] = i
        return i
    }
}
