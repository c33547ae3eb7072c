import Foundation

/// OSRM's rule for whether a change of road name is worth a word (`requiresNameAnnounced`): a
/// name that only gains or loses a tail, or a ref that only grows, shrinks or ends, is the same
/// road to the driver. Its post-processing has no suffix table (only an empty rest counts as a
/// suffix); its turn rules have the car profile's (`suffixes`: "42 N" and "42 S" are one road).
enum NameAnnouncement {
    /// The car profile's `suffix_list`, lower-cased as OSRM's suffix table holds it.
    static let suffixTable: [[UInt8]] = ["n", "ne", "e", "se", "s", "sw", "w", "nw", "north", "south", "west", "east", "nor", "sou", "we", "ea"]
        .map { Array($0.utf8) }

    static func required(fromName: String, fromRef: String, toName: String, toRef: String, suffixes: Bool = false) -> Bool {
        // From nothing to something.
        if fromName.isEmpty && fromRef.isEmpty && !(toName.isEmpty && toRef.isEmpty) { return true }
        let namesAreEmpty = fromName.isEmpty && toName.isEmpty
        let nameIsContained = fromName.hasPrefix(toName) || toName.hasPrefix(fromName)
        let namesAreEqual = fromName == toName || nameIsContained
        let nameIsRemoved = !fromName.isEmpty && toName.isEmpty
        let refsAreEmpty = fromRef.isEmpty && toRef.isEmpty
        let refIsContained = fromRef.isEmpty || toRef.isEmpty || fromRef.contains(toRef) || toRef.contains(fromRef)
        let refIsRemoved = !fromRef.isEmpty && toRef.isEmpty
        let needsAnnounce = (fromName.isEmpty && !fromRef.isEmpty && !toName.isEmpty && toRef.isEmpty)
            || (!fromName.isEmpty && fromRef.isEmpty && toName.isEmpty && !toRef.isEmpty)
            || (namesAreEmpty && !refIsContained)
        if needsAnnounce { return true }
        let obvious = (namesAreEmpty && refsAreEmpty) || (namesAreEqual && refIsContained)
            || (namesAreEqual && refsAreEmpty) || (refIsContained && nameIsRemoved) || (namesAreEqual && refIsRemoved)
        // A change of prefix or suffix alone is obvious too (checked last: the costliest).
        return !obvious && !(suffixes && onlyPrefixOrSuffixDiffers(fromName, toName))
    }

    /// OSRM's `decompose` and suffix check: around the longest common substring of the two
    /// names, each name's rest before and after (trimmed of spaces, lower-cased) is empty or a
    /// suffix of the table. On the names' bytes, with one row of the dynamic programme on the
    /// stack: no allocation.
    static func onlyPrefixOrSuffixDiffers(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                // The longest common substring (OSRM's dynamic programme, the first longest).
                var best = 0, bestEnd = 0
                if !x.isEmpty && !y.isEmpty {
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * y.count) { rows in
                        rows.initialize(repeating: 0)
                        var previous = 0, current = y.count
                        for i in 0..<x.count {
                            for j in 0..<y.count {
                                let v = x[i] == y[j] ? (j == 0 ? 1 : rows[previous + j - 1] + 1) : 0
                                rows[current + j] = v
                                if v > best { best = v; bestEnd = i + 1 }
                            }
                            swap(&previous, &current)
                        }
                    }
                }
                guard best > 0 else { return isSuffix(x, 0..<x.count) && isSuffix(y, 0..<y.count) }
                let common = x.baseAddress! + (bestEnd - best)
                // Where the common part first occurs in each (OSRM's `find`).
                func firstOccurrence(_ s: UnsafeBufferPointer<UInt8>) -> Int {
                    guard s.count >= best else { return 0 }
                    for start in 0...(s.count - best) where memcmp(s.baseAddress! + start, common, best) == 0 { return start }
                    return 0
                }
                let xs = firstOccurrence(x), ys = firstOccurrence(y)
                return isSuffix(x, 0..<xs) && isSuffix(x, (xs + best)..<x.count) && isSuffix(y, 0..<ys) && isSuffix(y, (ys + best)..<y.count)
            }
        }
    }

    /// The bytes `r` of `s`, trimmed of spaces, are empty or one of `suffixTable` (ASCII case
    /// folded, as OSRM's `tolower`).
    private static func isSuffix(_ s: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi && s[lo] == 0x20 { lo += 1 }
        while hi > lo && s[hi - 1] == 0x20 { hi -= 1 }
        if lo == hi { return true }
        outer: for entry in suffixTable where entry.count == hi - lo {
            for (k, c) in entry.enumerated() {
                var byte = s[lo + k]
                if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                if byte != c { continue outer }
            }
            return true
        }
        return false
    }

    /// OSRM's `haveSameName` of two steps: both have a name or ref, and going from one to the
    /// other needs no announcement.
    static func same(_ a: RouteStep, _ b: RouteStep) -> Bool {
        guard !(a.name.isEmpty && a.ref.isEmpty), !(b.name.isEmpty && b.ref.isEmpty) else { return false }
        if a.name == b.name && a.ref == b.ref { return true }
        return !required(fromName: a.name, fromRef: a.ref, toName: b.name, toRef: b.ref)
    }
}
