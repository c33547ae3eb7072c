import TileMath

/// The tile index of one zoom of an MBTiles tileset, read with one scan and kept as two flat
/// arrays (12 bytes a tile): keys `x << 32 | y` (XYZ rows) in ascending order, which is
/// `TileCoordinate` order within a zoom, and the tiles' byte lengths. Planning asks for the
/// tiles under thousands of pack parents; one scan plus a binary search per parent replaces one
/// SQL query per parent.
struct MBTilesZoomIndex {
    let zoom: Int
    private(set) var keys: [UInt64] = []
    private(set) var lengths: [UInt32] = []

    /// Builds the index from unsorted (x, y, length) rows; rows outside the zoom's grid are
    /// dropped (no coordinate query could return them). Equal coordinates (a view without a
    /// unique key) stay, ordered by length, so the output does not depend on the scan order.
    init(zoom: Int, columns: [UInt32], rows: [UInt32], rowLengths: [UInt32]) {
        self.zoom = zoom
        var order = Array(0..<columns.count)
        let key = { (i: Int) -> UInt64 in UInt64(columns[i]) << 32 | UInt64(rows[i]) }
        var sorted = true
        for i in order.dropFirst() where key(i - 1) > key(i) || (key(i - 1) == key(i) && rowLengths[i - 1] > rowLengths[i]) {
            sorted = false
            break
        }
        if !sorted {
            order.sort { a, b in
                let ka = key(a), kb = key(b)
                return ka != kb ? ka < kb : rowLengths[a] < rowLengths[b]
            }
        }
        keys.reserveCapacity(order.count)
        lengths.reserveCapacity(order.count)
        for i in order {
            keys.append(key(i))
            lengths.append(rowLengths[i])
        }
    }

    /// An index from keys already in ascending order (no equal keys) and their lengths.
    init(zoom: Int, sortedKeys: [UInt64], lengths: [UInt32]) {
        self.zoom = zoom
        keys = sortedKeys
        self.lengths = lengths
    }

    /// Whether `keys` are strictly ascending (what `init(zoom:sortedKeys:lengths:)` needs).
    static func isStrictlyAscending(_ keys: [UInt64]) -> Bool {
        keys.withUnsafeBufferPointer { k in
            var i = 1
            while i < k.count {
                if k[i - 1] >= k[i] { return false }
                i += 1
            }
            return true
        }
    }

    var count: Int { keys.count }

    /// The first position whose key is ≥ `key`.
    private func lowerBound(_ key: UInt64, from start: Int) -> Int {
        var lo = start, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The tiles among `parent`'s descendants at this zoom, sorted by coordinate: one binary
    /// search to the first column, then a walk that jumps over the rows outside the parent's.
    func entries(under parent: TileCoordinate) -> [TileIndexEntry] {
        let xs = parent.descendantColumns(atZoom: zoom), ys = parent.descendantRows(atZoom: zoom)
        let yLow = UInt64(ys.lowerBound), yHigh = UInt64(ys.upperBound)
        let xHigh = UInt64(xs.upperBound)
        var result: [TileIndexEntry] = []
        var i = lowerBound(UInt64(xs.lowerBound) << 32 | yLow, from: 0)
        while i < keys.count {
            let k = keys[i], x = k >> 32, y = k & 0xffff_ffff
            if x > xHigh { break }
            if y < yLow {
                i = lowerBound(x << 32 | yLow, from: i)
            } else if y > yHigh {
                i = lowerBound((x + 1) << 32 | yLow, from: i)
            } else {
                result.append(TileIndexEntry(coordinate: TileCoordinate(z: zoom, x: Int(x), y: Int(y)), length: Int(lengths[i])))
                i += 1
            }
        }
        return result
    }
}
