/// OSRM's obvious road at a junction (`IntersectionHandler::findObviousTurn`): the road a driver
/// follows without being told, because it goes on with the name and class arrived on and the
/// others are clearly less so, or because it is the one nearly straight way among sharper ones.
/// Taking the obvious road needs no step (or a `new name`); the others are turns.
///
/// `roads[0]` is the road arrived on (angle 0), the others by angle (`turnRoads`).
extension StepBuilder {
    static let straightAngle = 180.0
    static let osrmGroupAngle = 60.0
    static let fuzzyAngleDifference = 25.0
    static let distinctionRatio = 2.0
    static let maximalAllowedNoTurnDeviation = 3.0

    @inline(__always) static func deviation(_ a: Double, _ b: Double) -> Double { RoadShapeMath.deviation(a, b) }

    /// OSRM's `requiresNameAnnounced` between two roads, with its car profile's suffix table.
    func nameChanges(_ a: TurnRoad, _ b: TurnRoad) -> Bool {
        if a.name == b.name && a.ref == b.ref { return false }
        return strings.nameChange(SIMD4(a.name, a.ref, b.name, b.ref)) {
            NameAnnouncement.required(fromName: strings.string(a.name, in: data), fromRef: strings.string(a.ref, in: data),
                                      toName: strings.string(b.name, in: data), toRef: strings.string(b.ref, in: data),
                                      suffixes: true)
        }
    }

    /// The road closest to straight on among those `excluded` leaves (OSRM's `findClosestTurn`
    /// with a filter; the first of equals).
    func closestToStraight(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int, excluding excluded: (TurnRoad) -> Bool) -> Int? {
        var best: Int?, bestDeviation = Double.infinity
        for i in 0..<n where !excluded(roads[i]) {
            let d = Self.deviation(roads[i].angle, Self.straightAngle)
            if d < bestDeviation { best = i; bestDeviation = d }
        }
        return best
    }

    func findObviousTurn(_ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Int? {
        if n == 1 { return nil }
        if n == 2 { return 1 }
        let via = roads[0], viaClass = via.classification
        // Going on with the name, in the same class or a higher one.
        let continuesOnName = closestToStraight(roads, n) { road in
            if !road.entryAllowed { return true }
            if via.isUnnamed && !viaClass.isLowPriority { return true }
            let c = road.classification
            if road.isUnnamed && !c.isLowPriority { return true }
            if via.isUnnamed != road.isUnnamed { return true }
            if c.strictlyLess(than: viaClass) { return true }
            if c.isLink(to: viaClass) { return true }
            return self.nameChanges(via, road)
        }
        @inline(__always) func valid(_ i: Int) -> Int? {
            if roads[0].roundabout != roads[i].roundabout { return nil }
            return i == 0 ? nil : i
        }
        if let c = continuesOnName, isDistinctTurn(c, roads, n) { return valid(c) }
        // The straightmost road of the same class or a higher one.
        let sameOrHigher = closestToStraight(roads, n) { road in
            if !road.entryAllowed { return true }
            let c = road.classification
            return c.strictlyLess(than: viaClass) || c.isLink(to: viaClass)
        }
        if let s = sameOrHigher, isDistinctTurn(s, roads, n) { return valid(s) }
        // Any road, if it is somewhat narrow.
        guard let straightmost = closestToStraight(roads, n, excluding: { !$0.entryAllowed }) else { return nil }
        var nonSharp = 0
        for i in 0..<n where Self.deviation(roads[i].angle, Self.straightAngle) <= 90 { nonSharp += 1 }
        let straightmostDeviation = Self.deviation(roads[straightmost].angle, Self.straightAngle)
        let onlyNonSharp = straightmostDeviation <= 90 && nonSharp == 1
        if straightmost != sameOrHigher && (straightmostDeviation <= Self.osrmGroupAngle || onlyNonSharp)
            && !roads[straightmost].classification.isLowPriority && isDistinctTurn(straightmost, roads, n) {
            return valid(straightmost)
        }
        var enterable = 0
        for i in 0..<n where roads[i].entryAllowed { enterable += 1 }
        // A motorway's only way on.
        if roads[straightmost].classification.isMotorwayClass && straightmostDeviation <= Self.osrmGroupAngle && enterable == 1 {
            return valid(straightmost)
        }
        // A road splitting up, every part with the same name.
        var allSameName = true
        for i in 0..<n where roads[i].isUnnamed || roads[i].name != via.name || roads[i].ref != via.ref { allSameName = false }
        if n == 3 && allSameName && enterable == 1
            && (Self.deviation(roads[1].angle, 90) > Self.narrowTurnAngle || Self.deviation(roads[2].angle, 270) > Self.narrowTurnAngle) {
            return valid(straightmost)
        }
        return nil
    }

    /// OSRM's `roadHasLowerClass`, without lane counts (the graph has none).
    private func roadHasLowerClass(_ from: RoadClassification, _ to: RoadClassification, _ compare: RoadClassification) -> Bool {
        compare.isLink(to: from) && compare.isLink(to: to)
    }

    func isDistinctTurn(_ candidate: Int, _ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Bool {
        Self.deviation(roads[candidate].angle, Self.straightAngle) < Self.osrmGroupAngle
            ? isDistinctNarrowTurn(candidate, roads, n) : isDistinctWideTurn(candidate, roads, n)
    }

    /// OSRM's `IsDistinctNarrowTurn`: no other road looks as much like the way on.
    private func isDistinctNarrowTurn(_ candidate: Int, _ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Bool {
        let via = roads[0], viaClass = via.classification
        let cand = roads[candidate], candClass = cand.classification
        let candidateDeviation = Self.deviation(cand.angle, Self.straightAngle)
        let noNameChangeToCandidate = !nameChanges(via, cand)
        for i in 1..<n where i != candidate {
            let road = roads[i], compareClass = road.classification
            if candidateDeviation < Self.narrowTurnAngle && !road.entryAllowed { continue }
            let compareDeviation = Self.deviation(road.angle, Self.straightAngle)
            let distinct = compareDeviation > Self.distinctionRatio * candidateDeviation
                && abs(compareDeviation - candidateDeviation) > Self.fuzzyAngleDifference / 2
            let slightlyDistinct = compareDeviation > 0.7 * Self.distinctionRatio * candidateDeviation
            // Roundabout exits with larger deviations.
            if via.roundabout == cand.roundabout && via.roundabout != road.roundabout && candidateDeviation < compareDeviation { continue }
            let nameChangesToCompare = nameChanges(via, road)
            if (noNameChangeToCandidate || nameChangesToCompare) && distinct { continue }
            // A road going on across the junction is not like the candidate.
            var opposing = 0, opposingDeviation = Double.infinity
            let back = road.bearing >= 180 ? road.bearing - 180 : road.bearing + 180
            for k in 0..<n {
                let d = Self.deviation(roads[k].bearing, back)
                if d < opposingDeviation { opposing = k; opposingDeviation = d }
            }
            let fourOrMore = n >= 4
            let noNameChangeFromOpposing = !nameChanges(roads[opposing], road)
            let opposingToCompare = Self.deviation(road.angle, roads[opposing].angle)
            let opposingDistinct = noNameChangeFromOpposing || opposingToCompare > Self.straightAngle - Self.narrowTurnAngle
            if fourOrMore && opposingDistinct && distinct { continue }
            if fourOrMore && noNameChangeToCandidate && nameChangesToCompare && slightlyDistinct && noNameChangeFromOpposing
                && opposingToCompare > Self.straightAngle - Self.fuzzyAngleDifference { continue }
            if !fourOrMore && noNameChangeToCandidate && nameChangesToCompare && distinct
                && opposingToCompare > Self.straightAngle - Self.osrmGroupAngle { continue }
            // From a minor road every distinct road is unlike the candidate.
            if viaClass.priority > 6 && distinct { continue }
            let samePriority = viaClass.priority == candClass.priority
            if samePriority && candClass.priority < compareClass.priority && noNameChangeToCandidate && slightlyDistinct { continue }
            if samePriority && Int(candClass.priority) > Int(compareClass.priority) + 4 && noNameChangeToCandidate && slightlyDistinct { continue }
            if roadHasLowerClass(viaClass, candClass, compareClass) { continue }
            if samePriority && viaClass.group < compareClass.group && nameChanges(cand, road) && nameChangesToCompare { continue }
            if samePriority && compareClass.isLinkClass { continue }
            return false
        }
        return true
    }

    /// OSRM's `IsDistinctWideTurn`: every other road turns at least twice as much.
    private func isDistinctWideTurn(_ candidate: Int, _ roads: UnsafeMutableBufferPointer<TurnRoad>, _ n: Int) -> Bool {
        let via = roads[0], viaClass = via.classification
        let cand = roads[candidate], candClass = cand.classification
        let candidateDeviation = Self.deviation(cand.angle, Self.straightAngle)
        let reverse = { (b: Double) in b >= 180 ? b - 180 : b + 180 }
        let angleBetween = { (entry: Double, exit: Double) in (entry - exit + 540).truncatingRemainder(dividingBy: 360) }
        for i in 1..<n where i != candidate {
            let road = roads[i]
            let compareDeviation = Self.deviation(road.angle, Self.straightAngle)
            let compareStraight = ManeuverModifier(osrmAngle: road.angle) == .straight
            if !compareStraight && roadHasLowerClass(viaClass, candClass, road.classification) { continue }
            if compareDeviation > Self.distinctionRatio * candidateDeviation { continue }
            // Bearings measured at the junction itself, when the perceived ones differ much.
            if Self.deviation(via.initialBearing, via.bearing) > Self.fuzzyAngleDifference {
                let viaInitial = reverse(via.initialBearing)
                let candidateInitial = Self.deviation(angleBetween(viaInitial, cand.initialBearing), Self.straightAngle)
                let roadInitial = Self.deviation(angleBetween(viaInitial, road.initialBearing), Self.straightAngle)
                let roadToCandidate = angleBetween(reverse(road.initialBearing), cand.initialBearing)
                if ManeuverModifier(osrmAngle: roadToCandidate) != .straight && roadInitial > Self.distinctionRatio * candidateInitial { continue }
            }
            return false
        }
        return true
    }
}
