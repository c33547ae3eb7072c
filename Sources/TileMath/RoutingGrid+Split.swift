extension RoutingGrid {
    /// A way to split a too-large selection: the bounding box (in grid cells) of `tiles` cut
    /// into k columns × m rows of near-equal pieces (sizes differ by at most one cell), with the
    /// fewest pieces k·m such that every piece, shrunk to the cells its tiles occupy, spans at
    /// most `limit` cells. Each returned box is grid-aligned, so used as a bbox region it selects
    /// exactly its cells — at most `limit` tiles — and together they cover every tile given.
    ///
    /// Ties on k·m go to fewer non-empty pieces, then to squarer pieces, then to fewer columns.
    /// Pieces holding no tile are left out. Order: south to north, then west to east.
    /// Invalid ids are ignored; an empty selection or `limit < 1` gives [].
    /// If no split with at most 1024 pieces exists, the answer is a plain tiling with pieces of
    /// at most `limit` cells.
    public func suggestSplit(tiles: [UInt32], limit: Int) -> [BBox] {
        let valid = tiles.filter(isValid)
        guard limit >= 1, let first = valid.first else { return [] }
        var minCol = column(of: first), maxCol = minCol, minRow = row(of: first), maxRow = minRow
        for id in valid {
            let c = column(of: id), r = row(of: id)
            minCol = min(minCol, c); maxCol = max(maxCol, c)
            minRow = min(minRow, r); maxRow = max(maxRow, r)
        }
        let occupancy = OccupancyCounts(tiles: valid, grid: self, minCol: minCol, minRow: minRow,
                                        width: maxCol - minCol + 1, height: maxRow - minRow + 1)
        let width = occupancy.width, height = occupancy.height
        let tileCount = occupancy.count(0..<width, 0..<height)

        // Always feasible: pieces of at most `limit` cells.
        let fallbackWidth = min(width, limit)
        let fallbackHeight = min(height, max(1, limit / fallbackWidth))
        let fallback = (k: (width + fallbackWidth - 1) / fallbackWidth, m: (height + fallbackHeight - 1) / fallbackHeight)

        var best: (pieces: [PieceCells], squareness: Double, k: Int)?
        let lowerBound = max(1, (tileCount + limit - 1) / limit)
        let upperBound = min(fallback.k * fallback.m, 1024)
        if lowerBound <= upperBound {
            for n in lowerBound...upperBound {
                for k in 1...min(n, width) where n % k == 0 && n / k <= height {
                    let m = n / k
                    guard let pieces = occupancy.pieces(columns: k, rows: m, limit: limit) else { continue }
                    let aspect = (Double(width) / Double(k)) / (Double(height) / Double(m))
                    let squareness = max(aspect, 1 / aspect) // 1 for square pieces
                    if let b = best,
                       (b.pieces.count, b.squareness, b.k) <= (pieces.count, squareness, k) { continue }
                    best = (pieces, squareness, k)
                }
                if best != nil { break }
            }
        }
        let pieces = best?.pieces ?? occupancy.pieces(columns: fallback.k, rows: fallback.m, limit: limit) ?? []
        return pieces.map { p in
            BBox(minLon: lonEdge(minCol + p.minCol), minLat: latEdge(minRow + p.minRow),
                 maxLon: lonEdge(minCol + p.maxCol + 1), maxLat: latEdge(minRow + p.maxRow + 1))
        }
    }

    /// "region too large: N tiles > limit M; split it, e.g. into K bboxes: a b …" for the CLI.
    public func tooManyTilesMessage(tiles: [UInt32], limit: Int) -> String {
        let pieces = suggestSplit(tiles: tiles, limit: limit)
        return "region too large: \(tiles.count) tiles > limit \(limit); split it, e.g. into \(pieces.count) bboxes: "
            + pieces.map(\.description).joined(separator: " ")
    }
}

/// A piece's occupied cells, relative to the selection's bounding box (inclusive).
struct PieceCells {
    var minCol: Int, maxCol: Int, minRow: Int, maxRow: Int
}

/// Tile counts over the selection's bounding box as 2-D prefix sums, so any sub-rectangle is
/// counted in O(1).
struct OccupancyCounts {
    let width: Int
    let height: Int
    /// prefix[(r) * (width + 1) + c] = tiles in columns 0..<c, rows 0..<r.
    private var prefix: [Int32]

    init(tiles: [UInt32], grid: RoutingGrid, minCol: Int, minRow: Int, width: Int, height: Int) {
        self.width = width
        self.height = height
        var cells = [Bool](repeating: false, count: width * height)
        for id in tiles {
            cells[(grid.row(of: id) - minRow) * width + grid.column(of: id) - minCol] = true // duplicates count once
        }
        prefix = [Int32](repeating: 0, count: (width + 1) * (height + 1))
        for r in 0..<height {
            var rowSum: Int32 = 0
            for c in 0..<width {
                if cells[r * width + c] { rowSum += 1 }
                prefix[(r + 1) * (width + 1) + c + 1] = prefix[r * (width + 1) + c + 1] + rowSum
            }
        }
    }

    func count(_ cols: Range<Int>, _ rows: Range<Int>) -> Int {
        let w = width + 1
        return Int(prefix[rows.upperBound * w + cols.upperBound] - prefix[rows.lowerBound * w + cols.upperBound]
                   - prefix[rows.upperBound * w + cols.lowerBound] + prefix[rows.lowerBound * w + cols.lowerBound])
    }

    /// The non-empty pieces of a k × m cut, each shrunk to its occupied cells, or nil when one
    /// of them spans more than `limit` cells.
    func pieces(columns k: Int, rows m: Int, limit: Int) -> [PieceCells]? {
        var result: [PieceCells] = []
        for j in 0..<m {
            let rows = (j * height / m)..<((j + 1) * height / m)
            for i in 0..<k {
                let cols = (i * width / k)..<((i + 1) * width / k)
                guard count(cols, rows) > 0 else { continue }
                var p = PieceCells(minCol: cols.lowerBound, maxCol: cols.upperBound - 1,
                                   minRow: rows.lowerBound, maxRow: rows.upperBound - 1)
                while count(p.minCol..<(p.minCol + 1), rows) == 0 { p.minCol += 1 }
                while count(p.maxCol..<(p.maxCol + 1), rows) == 0 { p.maxCol -= 1 }
                while count(cols, p.minRow..<(p.minRow + 1)) == 0 { p.minRow += 1 }
                while count(cols, p.maxRow..<(p.maxRow + 1)) == 0 { p.maxRow -= 1 }
                guard (p.maxCol - p.minCol + 1) * (p.maxRow - p.minRow + 1) <= limit else { return nil }
                result.append(p)
            }
        }
        return result
    }
}
