import TileMath

extension RoadNetwork {
    /// A way's attributes with a ferry's `duration` turned into the speed that crosses the whole
    /// way in that time (both directions); other ways' attributes unchanged.
    func attributesWithDuration(ofWay w: Int) -> WayRecord {
        var attrs = wayAttributes[w]
        guard attrs.durationDeciseconds > 0 else { return attrs }
        var metres = 0.0
        var previous: GeoPoint?
        for node in nodes(ofWay: w) where hasCoordinate(node) {
            let p = GeoPoint(lon: Double(nodeLonE7[Int(node)]) / 1e7, lat: Double(nodeLatE7[Int(node)]) / 1e7)
            if let previous { metres += haversineMeters(previous, p) }
            previous = p
        }
        // km/h × 10 = m / s × 36; at least 0.1 km/h so that the direction stays drivable.
        let deciKmh = UInt16(max(1, min(Double(UInt16.max), (metres / (Double(attrs.durationDeciseconds) / 10) * 36).rounded())))
        if attrs.speedForwardDeciKmh > 0 { attrs.speedForwardDeciKmh = deciKmh }
        if attrs.speedBackwardDeciKmh > 0 { attrs.speedBackwardDeciKmh = deciKmh }
        return attrs
    }
}
