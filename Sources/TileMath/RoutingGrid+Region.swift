extension RoutingGrid {
    /// The tiles a region needs, sorted by id: exactly the cells whose OPEN interior meets the
    /// region (interior plus boundary). Touching a cell only along its border or at a corner
    /// does not select it; see `PolygonCellIntersection` for the exact decision procedure.
    public func tiles(intersecting region: PolygonRegion) -> [UInt32] {
        guard let cols = columns(overlapping: region.bbox.minLon, region.bbox.maxLon),
              let candidateRows = rows(overlapping: region.bbox.minLat, region.bbox.maxLat) else { return [] }
        let width = cols.count
        var selected = [Bool](repeating: false, count: width * candidateRows.count)

        // 1. Cells a boundary segment passes through: only those within the segment's box.
        for polygon in region.flatPolygons {
            for r in 0..<polygon.xs.count {
                let xs = polygon.xs[r], ys = polygon.ys[r]
                for i in 0..<(xs.count - 1) {
                    let ax = xs[i], ay = ys[i], bx = xs[i + 1], by = ys[i + 1]
                    guard let segmentCols = columns(overlapping: min(ax, bx), max(ax, bx)),
                          let segmentRows = rows(overlapping: min(ay, by), max(ay, by)) else { continue }
                    for row in segmentRows {
                        let box0 = PolygonCellIntersection.OpenBox(minX: 0, minY: latEdge(row), maxX: 0, maxY: latEdge(row + 1))
                        for col in segmentCols {
                            let index = (row - candidateRows.lowerBound) * width + (col - cols.lowerBound)
                            if selected[index] { continue }
                            var box = box0
                            box.minX = lonEdge(col)
                            box.maxX = lonEdge(col + 1)
                            if PolygonCellIntersection.segmentMeetsOpenBox(ax, ay, bx, by, box) { selected[index] = true }
                        }
                    }
                }
            }
        }

        // 2. Cells no boundary passes through are wholly inside or outside: test their centres,
        //    row by row, against only the segments crossing that row's centre line.
        var straddling: [(ax: Double, ay: Double, bx: Double, by: Double)] = []
        for row in candidateRows {
            let rowBase = (row - candidateRows.lowerBound) * width
            guard selected[rowBase..<(rowBase + width)].contains(false) else { continue }
            let y = (latEdge(row) + latEdge(row + 1)) / 2
            for polygon in region.flatPolygons where polygon.bbox.minLat <= y && y <= polygon.bbox.maxLat {
                straddling.removeAll(keepingCapacity: true)
                for r in 0..<polygon.xs.count {
                    let xs = polygon.xs[r], ys = polygon.ys[r]
                    for i in 0..<(xs.count - 1) where (ys[i] > y) != (ys[i + 1] > y) {
                        straddling.append((xs[i], ys[i], xs[i + 1], ys[i + 1]))
                    }
                }
                if straddling.isEmpty { continue }
                for col in cols where !selected[rowBase + col - cols.lowerBound] {
                    let x = (lonEdge(col) + lonEdge(col + 1)) / 2
                    var inside = false
                    for s in straddling where PolygonCellIntersection.crossesRightOf(s.ax, s.ay, s.bx, s.by, x, y) {
                        inside.toggle()
                    }
                    if inside { selected[rowBase + col - cols.lowerBound] = true }
                }
            }
        }

        var ids: [UInt32] = []
        for row in candidateRows {
            for col in cols where selected[(row - candidateRows.lowerBound) * width + (col - cols.lowerBound)] {
                ids.append(tileId(row: row, column: col))
            }
        }
        return ids
    }
}
