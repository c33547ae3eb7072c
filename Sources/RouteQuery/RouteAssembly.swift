/// Builds one route (OSRM's `routes[i]`) from its legs.
struct RouteAssembly {
    let data: RoutingData
    let steps: StepBuilder
    let request: RouteRequest

    func route(legs: [LegSearch.Leg], phantoms: [Phantom]) -> Route {
        var legResponses: [RouteLeg] = []
        var lat: [Double] = [], lon: [Double] = []
        var distance = 0.0, duration = 0.0
        var onlyLeg: PolylineRuns?
        for (i, leg) in legs.enumerated() {
            data.prefetch(ranks: leg.ranks)
            let (pieces, points) = leg.pieces(data, source: phantoms[i], target: phantoms[i + 1])
            let meters = pieces.reduce(0) { $0 + $1.meters }
            let seconds = Double(leg.weight) / 10
            distance += meters
            duration += seconds
            // The leg's points are its pieces' in order, each junction once; a later leg starts
            // where the previous one ended.
            if i == 0 {
                // Shared, not copied: a one-leg route's overview is its leg's points.
                lat = points.lat
                lon = points.lon
            } else {
                lat.append(contentsOf: points.lat.dropFirst())
                lon.append(contentsOf: points.lon.dropFirst())
            }
            // Steps' polylines are runs of the leg's, and so is a one-leg route's overview.
            let runs = request.steps || (legs.count == 1 && request.overview == .full) ? polylineRuns(points) : nil
            if legs.count == 1 { onlyLeg = runs }
            var stepResponses: [RouteStepResponse] = []
            if request.steps {
                let target = phantoms[i + 1]
                let built = steps.steps(pieces, points: points, arriveLocation: (target.lon, target.lat))
                stepResponses = built.withUnsafeBufferPointer { steps in
                    steps.indices.map { stepResponse(steps.baseAddress.unsafelyUnwrapped + $0, legPoints: points, legPolyline: runs) }
                }
                if request.voiceInstructions || request.bannerInstructions {
                    InstructionBuilder.attach(to: &stepResponses, steps: built, points: points, leg: i, legCount: legs.count,
                                              requested: request.coordinates[i + 1],
                                              voice: request.voiceInstructions, banner: request.bannerInstructions)
                }
            }
            var legResponse = RouteLeg(distance: round1(meters), duration: round1(seconds), weight: round1(seconds),
                                       summary: summary(pieces), steps: stepResponses)
            if !request.annotations.isEmpty { legResponse.annotation = LegAnnotation.of(pieces, points: points, kinds: request.annotations) }
            legResponses.append(legResponse)
        }
        var r = Route(distance: round1(distance), duration: round1(duration), weight: round1(duration), geometry: nil, legs: legResponses)
        switch request.overview {
        case .full: r.geometry = onlyLeg.map { .polyline($0.whole) } ?? geometry(lat[...], lon[...])
        case .simplified:
            let keep = LineSimplification.keptIndexes(latE7: lat.map { Int32(Polyline.roundedHalfAway($0 * 1e7)) },
                                                      lonE7: lon.map { Int32(Polyline.roundedHalfAway($0 * 1e7)) },
                                                      toleranceMeters: simplifyTolerance(distance))
            r.geometry = geometry(keep.map { lat[$0] }[...], keep.map { lon[$0] }[...])
        case .false: break
        }
        return r
    }

    /// OSRM simplifies the overview to about zoom 14-ish detail; scale the tolerance with length.
    func simplifyTolerance(_ meters: Double) -> Double { max(1, min(50, meters / 2000)) }

    /// The leg's points as a polyline to take runs from (nil for GeoJSON geometries).
    func polylineRuns(_ points: LegPoints) -> PolylineRuns? {
        switch request.geometries {
        case .polyline6: return PolylineRuns(lat: points.lat[...], lon: points.lon[...], precision: 6)
        case .polyline: return PolylineRuns(lat: points.lat[...], lon: points.lon[...], precision: 5)
        case .geojson: return nil
        }
    }

    func geometry(_ lat: ArraySlice<Double>, _ lon: ArraySlice<Double>) -> RouteGeometry {
        switch request.geometries {
        case .polyline6: return .polyline(EncodedPolyline(Polyline.encode(lat: lat, lon: lon, precision: 6)))
        case .polyline: return .polyline(EncodedPolyline(Polyline.encode(lat: lat, lon: lon, precision: 5)))
        case .geojson: return .lineString(zip(lon, lat).map { LonLat.rounded(lon: $0, lat: $1) })
        }
    }

    /// The names of the two roads driven longest, in route order (OSRM's leg summary). Runs of
    /// one name are long: the last name is remembered, and a new one is looked up in a small
    /// open-addressed table of the names seen (a long route has a hundred or more, which a
    /// linear search went through at every change). Scratch on the stack, in first-seen order.
    func summary(_ pieces: [DrivenPiece]) -> String {
        var slots = 16
        while slots < 2 * pieces.count { slots <<= 1 }
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: slots) { table in
            withUnsafeTemporaryAllocation(of: (name: UInt32, meters: Double).self, capacity: max(1, pieces.count)) { names in
                table.initialize(repeating: -1)
                var count = 0, last = -1
                for p in pieces {
                    let name = data.edges[p.edge].name
                    guard name != 0 else { continue }
                    if last < 0 || names[last].name != name {
                        var h = Int(truncatingIfNeeded: name &* 0x9E37_79B1) & (slots - 1)
                        while table[h] >= 0 && names[Int(table[h])].name != name { h = (h + 1) & (slots - 1) }
                        if table[h] < 0 {
                            table[h] = Int32(count)
                            names[count] = (name, 0)
                            count += 1
                        }
                        last = Int(table[h])
                    }
                    names[last].meters += p.meters
                }
                // The two longest (the earlier first on a tie), in route order: one pass, not a sort.
                var best = -1, second = -1
                for i in 0..<count {
                    if best < 0 || names[i].meters > names[best].meters {
                        second = best
                        best = i
                    } else if second < 0 || names[i].meters > names[second].meters {
                        second = i
                    }
                }
                guard best >= 0 else { return "" }
                guard second >= 0 else { return data.string(names[best].name) }
                return data.string(names[min(best, second)].name) + ", " + data.string(names[max(best, second)].name)
            }
        }
    }

    /// `legPoints`: the step's leg's points, of which every step but the arrival is a run, and
    /// `legPolyline` their polyline. The step is read in place, field by field: a copy of it (by
    /// value, or `borrowing` from an array) retained and released all of its references.
    func stepResponse(_ step: UnsafePointer<RouteStep>, legPoints: LegPoints, legPolyline: PolylineRuns?) -> RouteStepResponse {
        let type = step.pointee.type, at = step.pointee.location
        let meters = step.pointee.meters, seconds = step.pointee.seconds
        let location = LonLat.rounded(lon: at.lon, lat: at.lat)
        let maneuver = RouteManeuver(type: type.rawValue, modifier: step.pointee.modifier?.rawValue,
                                     bearingBefore: Int(step.pointee.bearingBefore) % 360, bearingAfter: Int(step.pointee.bearingAfter) % 360,
                                     location: location, exit: step.pointee.exit)
        let intersection = RouteIntersection(location: location, bearings: step.pointee.intersectionBearings,
                                             in: step.pointee.intersectionIn, out: step.pointee.intersectionOut)
        let stepGeometry: RouteGeometry
        if type == .arrive {
            stepGeometry = geometry([at.lat, at.lat], [at.lon, at.lon])
        } else if let run = legPolyline?.run(step.pointee.points) {
            // Not `if let legPolyline`: that bound a copy of the leg's polyline, four retains.
            stepGeometry = .polyline(run)
        } else {
            stepGeometry = geometry(legPoints.lat[step.pointee.points], legPoints.lon[step.pointee.points])
        }
        var response = RouteStepResponse(distance: round1(meters), duration: round1(seconds), weight: round1(seconds),
                                         name: step.pointee.name, ref: step.pointee.ref, geometry: stepGeometry, maneuver: maneuver,
                                         intersection: intersection)
        if let rotaryName = step.pointee.rotaryName { response.rotaryName = rotaryName }
        response.mode = step.pointee.isFerry ? "ferry" : data.file.travelMode.stepMode
        return response
    }
}
